#!/usr/bin/env node
'use strict';
// `npm pack` (prepack): build libboxlint and the boxlint command with the project's CMake (the
// repository two levels up) and put them in prebuilds/<platform>-<arch>-<libc>/, the layout
// native npm packages use for binaries carried inside the package. The same self-contained build
// as the wheel's (BOXLINT_STATIC_DEPS: pcre2, idn2, unistring and jansson linked in statically),
// so the prebuilds need only the C library. The version must be
// CMake's project(VERSION), the one place it is written: a package.json that says otherwise
// is refused here, before anything is packed.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { platformDir } = require('../platform');

const here = path.join(__dirname, '..');
const root = path.join(here, '..', '..');
const cmakeLists = path.join(root, 'CMakeLists.txt');
if (!fs.existsSync(cmakeLists)) {
  console.error(`boxlint: npm pack builds the library from the boxlint source tree; ${cmakeLists} is missing`);
  process.exit(1);
}
const m = /project\(boxlint\s+VERSION\s+([0-9.]+)/.exec(fs.readFileSync(cmakeLists, 'utf8'));
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
if (!m || m[1] !== pkg.version) {
  console.error(`boxlint: package.json says ${pkg.version}, CMakeLists.txt project(VERSION) says ` +
                `${m ? m[1] : '(none)'}: set package.json's version to CMake's`);
  process.exit(1);
}
const dir = platformDir();
if (!dir) {
  console.error(`boxlint: cannot build prebuilt binaries for ${process.platform}-${process.arch}`);
  process.exit(1);
}
const build = process.env.BOXLINT_NPM_BUILD_DIR || path.join(here, 'build', 'cmake');
const run = (args) => execFileSync('cmake', args, { stdio: ['ignore', 'inherit', 'inherit'] });
run(['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DBOXLINT_BUILD_TESTS=OFF',
     '-DBOXLINT_BUILD_BENCH=OFF', '-DBOXLINT_INSTALL=OFF', '-DBOXLINT_STATIC_DEPS=ON']);
run(['--build', build, '-j', String(require('os').cpus().length || 2), '--target', 'boxlint', 'boxlint_cli']);
const out = path.join(here, 'prebuilds', dir);
fs.rmSync(path.join(here, 'prebuilds'), { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.copyFileSync(fs.realpathSync(path.join(build, 'lib', 'libboxlint.so.0')), path.join(out, 'libboxlint.so.0'));
fs.copyFileSync(path.join(build, 'cli', 'boxlint'), path.join(out, 'boxlint'));
fs.chmodSync(path.join(out, 'boxlint'), 0o755);
console.log(`boxlint: prebuilds/${dir}: libboxlint.so.0, boxlint (${pkg.version})`);
// The WebAssembly builds (cmake/wasm.cmake's target `wasm`), which index.js and bin/boxlint.js
// use where no prebuild fits: carried when the toolchain is here, else the package is native
// only (said).
fs.rmSync(path.join(here, 'wasm'), { recursive: true, force: true });
try {
  run(['--build', build, '--target', 'wasm']);
  fs.mkdirSync(path.join(here, 'wasm'));
  fs.copyFileSync(path.join(build, 'wasm', 'boxlint.wasm'), path.join(here, 'wasm', 'boxlint.wasm'));
  console.log('boxlint: wasm/boxlint.wasm (the fallback where no prebuild fits)');
  // The command as WebAssembly, which bin/boxlint.js runs under node:wasi where no prebuilt
  // command fits: built where jansson's Debian source was fetched (tools/wasm-sources.sh).
  const cli = path.join(build, 'wasm', 'boxlint-cli.wasm');
  if (fs.existsSync(cli)) {
    fs.copyFileSync(cli, path.join(here, 'wasm', 'boxlint-cli.wasm'));
    console.log('boxlint: wasm/boxlint-cli.wasm (npx boxlint where no prebuild fits)');
  } else {
    console.warn('boxlint: no wasm/boxlint-cli.wasm (no jansson source: tools/wasm-sources.sh): ' +
      'npx boxlint needs a prebuild');
  }
} catch (e) {
  console.warn('boxlint: no WebAssembly build (clang, lld, wasi-libc, libclang-rt-14-dev-wasm32 ' +
    'missing?): the package carries the native prebuild only');
}
