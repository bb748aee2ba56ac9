'use strict';
// The errors this package throws, shared by both backends (koffi over libboxlint, and
// WebAssembly: lib/wasm_api.js); nothing here loads the library.

class BoxlintError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** The template (or policy) would be rejected: `errors` holds every error diagnostic (like the
 *  SDK's ValidationError.errors), `diagnostics` every finding. */
class ValidationError extends BoxlintError {
  constructor(diagnostics) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(`${errors.length} error${errors.length === 1 ? '' : 's'}` +
      (errors.length ? ': ' + errors.map((d) => `${d.message} [${d.rule}]`).join('; ') : ''));
    this.diagnostics = diagnostics;
    this.errors = errors;
  }
}

/** A NetworkPolicy has errors. */
class PolicyError extends ValidationError {}

/** A config setting was refused (unknown rule, error rule lowered, bad pattern). */
class ConfigError extends BoxlintError {
  constructor(message, offset = 0, status = '') {
    super(message);
    this.offset = offset;
    this.status = status;
  }
}

/** A NetworkPolicy or Config was used after close(). */
class ClosedError extends BoxlintError {}

module.exports = {
  BoxlintError,
  ValidationError,
  PolicyError,
  ConfigError,
  ClosedError,
};
