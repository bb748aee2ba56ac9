'use strict';
// Loading libboxlint: $BOXLINT_LIBRARY, then the one this package carries for this platform
// (prebuilds/<platform>-<arch>-<libc>/, made by `npm pack`), then next to this package, then
// the system's.
const fs = require('fs');
const path = require('path');
const koffi = require('koffi');
const { platformDir } = require('../platform');

const root = path.join(__dirname, '..'); // the package's folder

function libraryCandidates() {
  if (process.env.BOXLINT_LIBRARY) return [process.env.BOXLINT_LIBRARY];
  const names = process.platform === 'darwin' ? ['libboxlint.dylib', 'libboxlint.0.dylib']
    : process.platform === 'win32' ? ['boxlint.dll', 'libboxlint.dll']
      : ['libboxlint.so', 'libboxlint.so.0'];
  const out = [];
  for (const dir of [path.join(root, 'prebuilds', platformDir()), root, path.join(root, 'lib')]) {
    for (const n of names) if (fs.existsSync(path.join(dir, n))) out.push(path.join(dir, n));
  }
  return out.concat(names); // bare names: the dynamic loader's search path
}

function loadLibrary() {
  const errors = [];
  for (const p of libraryCandidates()) {
    try {
      return koffi.load(p);
    } catch (e) {
      errors.push(`${p}: ${e.message}`);
    }
  }
  const pre = path.join(root, 'prebuilds');
  const carried = fs.existsSync(pre) ? fs.readdirSync(pre).join(', ') : 'none';
  throw new Error(`boxlint: no libboxlint for ${platformDir()}: this package carries prebuilt ` +
    `binaries for ${carried}, and none was found on the system (${errors.join('; ')}); build ` +
    'libboxlint from source and set BOXLINT_LIBRARY to the path of the library');
}

const lib = loadLibrary();

module.exports = {
  lib,
};
