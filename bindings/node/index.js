'use strict';
/**
 * boxlint for Node.js. Two backends with one API: the native library through koffi
 * (lib/native.js, the prebuild for this platform or $BOXLINT_LIBRARY), and, where none loads,
 * the WebAssembly build (lib/wasm_api.js over lib/wasm.js, wasm/boxlint.wasm in the package or
 * $BOXLINT_WASM). `backend` says which ('native' or 'wasm'). BOXLINT_BACKEND=wasm chooses the
 * WebAssembly build even where a native library loads (the test of hiding the prebuilds).
 */
const fs = require('fs');
const path = require('path');

function wasmFile() {
  return process.env.BOXLINT_WASM || path.join(__dirname, 'wasm', 'boxlint.wasm');
}

function choose() {
  let why;
  if (process.env.BOXLINT_BACKEND === 'wasm') {
    why = new Error('BOXLINT_BACKEND=wasm');
  } else {
    try {
      return require('./lib/native');
    } catch (e) {
      if (!fs.existsSync(wasmFile())) throw e; // no fallback: the native error, as before
      why = e;
    }
  }
  const { load } = require('./lib/wasm');
  return require('./lib/wasm_api').api(load(wasmFile()), why.message);
}

module.exports = choose();
