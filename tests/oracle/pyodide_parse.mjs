// CPython 3.14 as Pyodide ships it (tests/oracle/node_modules/pyodide, `npm ci --prefix
// tests/oracle`), run in Node with no network: the oracle of python_versions_test.py for 3.14.
//
//   node pyodide_parse.mjs < PATHS     (one path a line)
//
// prints, for each path in order, one JSON line: null when `ast.parse` takes the file, else
// [line, column (0-based), message] of its SyntaxError ([0, 0, message] for the other errors
// that refuse a file: MemoryError, RecursionError, ValueError). The first line printed is
// {"version": "3.14.x"}. Exit 77 when Pyodide is not installed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let loadPyodide;
try {
  const require = createRequire(path.join(here, 'package.json'));
  ({ loadPyodide } = require('pyodide'));
} catch (e) {
  console.log('SKIPPED: pyodide is not installed (npm ci --prefix tests/oracle)');
  process.exit(77);
}
const py = await loadPyodide({ indexURL: path.join(here, 'node_modules', 'pyodide') + path.sep });
const paths = readFileSync(0, 'utf8').split('\n').filter((l) => l.length);
// Pyodide's file system is its own: the files' bytes go in as latin-1 text
py.globals.set('_datas', py.toPy(paths.map((p) => readFileSync(p).toString('latin1'))));
py.runPython(`
import ast, json, sys, warnings
def _verdict(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data)
            return None
        except SyntaxError as e:
            return [e.lineno or 0, (e.offset or 1) - 1, e.msg]
        except (ValueError, MemoryError, RecursionError) as e:
            return [0, 0, str(e)]
_out = [json.dumps({"version": "%d.%d.%d" % sys.version_info[:3]})]
for _d in _datas:
    _out.append(json.dumps(_verdict(_d.encode("latin-1"))))
_result = "\\n".join(_out)
`);
process.stdout.write(py.globals.get('_result') + '\n');
