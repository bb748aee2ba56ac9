'use strict';
// The boxlint command as WebAssembly (wasm/boxlint-cli.wasm, wasm/CMakeLists.txt) under
// node:wasi, shared by `npx boxlint` where no native command fits (bin/boxlint.js) and by
// checkFile on the WebAssembly backend (lib/wasm_api.js): the arguments and the environment as
// given, the whole file system (preopened at "/", the module's working directory set to this
// process's), standard streams the host descriptors given. Synchronous (WASI's start()); the
// module is compiled once per file and kept.
const fs = require('fs');
const path = require('path');

let WASI = null;
const compiled = new Map();

/* node:wasi is "experimental" in Node.js: its warning would be the only difference on stderr. */
function wasiClass() {
  if (WASI) return WASI;
  const emit = process.emitWarning;
  process.emitWarning = (w, ...rest) => {
    if (!/WASI/.test(String(w && w.message ? w.message : w)) && !/WASI/.test(String(rest[0]))) {
      emit.call(process, w, ...rest);
    }
  };
  try {
    ({ WASI } = require('node:wasi'));
  } finally {
    process.emitWarning = emit;
  }
  return WASI;
}

/** The command `file` run with `args` (without argv[0]); stdin, stdout, stderr: host file
 *  descriptors (default this process's). Returns its exit code; throws what a trap throws (out
 *  of memory, a bug). Host paths are the module's paths, except on Windows, where the current
 *  drive is the module's "/" and its backslashes are slashes. */
function runCommand(file, args, { stdin = 0, stdout = 1, stderr = 2 } = {}) {
  const Wasi = wasiClass();
  const win = process.platform === 'win32';
  const cwd = process.cwd();
  const root = win ? path.parse(cwd).root : '/';
  const guestCwd = win ? `/${path.relative(root, cwd).split(path.sep).join('/')}` : cwd;
  const wasi = new Wasi({
    version: 'preview1',
    args: ['boxlint', ...args],
    env: { ...process.env, BOXLINT_WASI_CWD: guestCwd },
    preopens: { '/': root },
    returnOnExit: true,
    stdin,
    stdout,
    stderr,
  });
  let mod = compiled.get(file);
  if (!mod) {
    mod = new WebAssembly.Module(fs.readFileSync(file));
    compiled.set(file, mod);
  }
  const code = wasi.start(new WebAssembly.Instance(mod, wasi.getImportObject()));
  return typeof code === 'number' ? code : 2;
}

module.exports = { runCommand };
