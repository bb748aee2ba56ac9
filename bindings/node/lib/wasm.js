'use strict';
// boxlint as WebAssembly in Node.js: lib/wasm_core.js (the module's C API over its memory, which
// the browser's playground/ shares) and loading boxlint.wasm from a file. Where no native
// prebuild fits, index.js loads this instead of koffi. What the WebAssembly build leaves out:
// docs/bindings.md, "WebAssembly".
const fs = require('fs');
const path = require('path');
const { instantiate, instantiateAsync, layout } = require('./wasm_core');

/* Load boxlint.wasm: $BOXLINT_WASM, else `file`, else wasm/boxlint.wasm next to the package. */
function load(file = null) {
  const f = process.env.BOXLINT_WASM || file || path.join(__dirname, '..', 'wasm', 'boxlint.wasm');
  return instantiate(fs.readFileSync(f));
}

module.exports = { load, instantiate, instantiateAsync, layout };
