#!/usr/bin/env node
'use strict';
// `npx boxlint FILE...`: the boxlint command this package carries for this platform, run with
// the same arguments, standard streams and exit code (0 clean, 1 findings, 2 usage or input).
// Where no native command fits the platform (or BOXLINT_BACKEND=wasm), the WebAssembly build of
// the same command (wasm/boxlint-cli.wasm, wasm/CMakeLists.txt) runs under node:wasi instead:
// the arguments and the environment as given, the standard streams, the whole file system
// (preopened at "/", the module's working directory set to this one), and its exit code
// (lib/wasi.js, which checkFile on the WebAssembly backend shares).
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { platformDir } = require('../platform');

const here = path.join(__dirname, '..');
const dir = platformDir();
const exe = path.join(here, 'prebuilds', dir, 'boxlint');
const wasm = process.env.BOXLINT_WASM_CLI || path.join(here, 'wasm', 'boxlint-cli.wasm');
const args = process.argv.slice(2);

/* The command as WebAssembly (lib/wasi.js). */
function runWasm() {
  let code;
  try {
    code = require('../lib/wasi').runCommand(wasm, args);
  } catch (e) {
    // A trap (out of memory, a bug): said, never a stack trace of the host.
    process.stderr.write(`boxlint: the WebAssembly command stopped: ${e.message}\n`);
    code = 2;
  }
  process.exitCode = code;
}

if (process.env.BOXLINT_BACKEND === 'wasm' || !fs.existsSync(exe)) {
  if (fs.existsSync(wasm)) {
    runWasm();
  } else {
    const have = fs.existsSync(path.join(here, 'prebuilds'))
      ? fs.readdirSync(path.join(here, 'prebuilds')).join(', ') : 'none';
    console.error(`boxlint: this package has no boxlint command for ${dir} (it carries: ${have}) ` +
                  'and no WebAssembly build of it; build boxlint from source (make build) and run ' +
                  'build/release/cli/boxlint');
    process.exitCode = 2;
  }
} else {
  const r = spawnSync(exe, args, { stdio: 'inherit' });
  if (r.error) {
    console.error(`boxlint: cannot run ${exe}: ${r.error.message}`);
    process.exit(2);
  }
  process.exit(r.status === null ? 2 : r.status);
}
