'use strict';
// The package's API over the WebAssembly build (lib/wasm.js), for where no native library
// loads (index.js). Groundwork (issue 27, point 3): the checks of commands, fragments,
// templates and Python files, NetworkPolicy with its decisions, and the rule table have the
// native binding's shapes; what is not here yet throws a BoxlintError naming it. What the
// WebAssembly build itself leaves out: docs/bindings.md, "WebAssembly".
const {
  BoxlintError, ValidationError, PolicyError, ConfigError, ClosedError,
} = require('./error_classes');

function result(r) {
  const diagnostics = r.diagnostics;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return {
    diagnostics, instructions: [], errors,
    warnings: diagnostics.filter((d) => d.severity === 'warning'), ok: errors.length === 0,
  };
}

/* A result whose fixes are edits of the checked text: fixed(text, opts), as lib/report.js. */
function fileResult(w, r) {
  const out = result(r);
  Object.defineProperty(out, 'fixed', {
    value: (text, opts) => w.applyFixes(text, out.diagnostics, opts).text, enumerable: false,
  });
  return out;
}

function notYet(name) {
  return () => {
    throw new BoxlintError(`boxlint: ${name} is not in the WebAssembly backend yet ` +
      '(set BOXLINT_LIBRARY to a native libboxlint to use it)');
  };
}

/** The API over `w`, a loaded module (lib/wasm.js load()); `why` says why not native. */
function api(w, why) {
  const text = (t) => (typeof t === 'string' ? t : new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
  class NetworkPolicy {
    constructor(policy = {}) {
      const p = w.policy(policy);
      if (!p.ok) throw new PolicyError(p.diagnostics);
      this._p = p;
      this.diagnostics = Object.freeze(p.diagnostics);
    }

    decide(dest = {}) {
      if (!this._p) throw new ClosedError('boxlint: NetworkPolicy used after close()');
      return this._p.decide(dest);
    }

    close() {
      if (this._p) this._p.close();
      this._p = null;
    }
  }
  const checkTemplate = (t) => result(w.checkTemplate(t));
  return {
    backend: 'wasm',
    /** Why the native library was not used (the error of loading it). */
    backendReason: why,
    version: w.version,
    checkCommands: (commands) => result(w.checkCommands(commands)),
    checkFragment: (t) => fileResult(w, w.checkFragment(text(t))),
    checkPython: (t) => fileResult(w, w.checkPython(text(t))),
    applyFixes: (t, fixes, opts) => w.applyFixes(typeof t === 'string' ? t : text(t), fixes, opts),
    checkTemplate,
    validateTemplate(t) {
      const r = checkTemplate(t);
      if (!r.ok) throw new ValidationError(r.diagnostics);
      return r;
    },
    NetworkPolicy,
    rules: () => w.rules(),
    checkBinding: notYet('checkBinding'),
    checkFile: notYet('checkFile'),
    rule: notYet('rule'),
    explain: notYet('explain'),
    Config: notYet('Config'),
    BoxlintError,
    ValidationError,
    PolicyError,
    ConfigError,
    ClosedError,
  };
}

module.exports = { api };
