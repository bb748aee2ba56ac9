'use strict';
/**
 * boxlint for Node.js: the platform's template validation, in process, over libboxlint
 * (C library) through koffi (an FFI package whose prebuilt binaries come from npm).
 *
 * Memory: every check creates its own C report and frees it before returning; results are
 * plain objects. NetworkPolicy and Config own C objects: free them with close() (or
 * [Symbol.dispose]); a FinalizationRegistry frees forgotten ones as a fallback. Using a closed
 * object throws ClosedError.
 *
 * Threads: the C objects are immutable and thread-safe, but JS objects belong to one isolate:
 * in worker_threads, build a NetworkPolicy or Config per worker. The checks and applyFixes
 * keep no state between calls.
 *
 * The native backend (index.js chooses it where a library loads). This file only re-exports:
 * each concern is a module of lib/ (load.js finds the library,
 * ffi.js declares its C API, then errors, inputs, owned, config, report, checks, fixes, policy,
 * rules and file).
 */
const { T, version } = require('./ffi');
const {
  BoxlintError, ValidationError, PolicyError, ConfigError, ClosedError,
} = require('./errors');
const {
  checkTemplate, validateTemplate, checkCommands, checkFragment, checkPython, checkBinding,
} = require('./checks');
const { applyFixes } = require('./fixes');
const { NetworkPolicy } = require('./policy');
const { Config } = require('./config');
const { rules, rule, explain } = require('./rules');
const { checkFile } = require('./file');

module.exports = {
  backend: 'native',
  version,
  checkFile,
  checkTemplate,
  validateTemplate,
  checkCommands,
  checkFragment,
  checkPython,
  checkBinding,
  applyFixes,
  NetworkPolicy,
  Config,
  rules,
  rule,
  explain,
  BoxlintError,
  ValidationError,
  PolicyError,
  ConfigError,
  ClosedError,
  /** @internal declarations, for the layout test */
  _types: T,
};
