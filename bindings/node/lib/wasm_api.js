'use strict';
// The package's API over the WebAssembly build (lib/wasm.js), for where no native library
// loads (index.js). Groundwork (issue 27, point 3): the checks of commands, fragments,
// templates and Python files, NetworkPolicy with its decisions, and the rule table have the
// native binding's shapes; what is not here yet throws a BoxlintError naming it. What the
// WebAssembly build itself leaves out: docs/bindings.md, "WebAssembly".
const {
  BoxlintError, ValidationError, PolicyError, ConfigError, ClosedError,
} = require('./error_classes');
const { typeName, spell } = require('./values');

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

/* config= and options= are not in the WebAssembly backend yet: refused, never ignored. */
function noSettings(opts, name) {
  if (!opts) return;
  for (const k of Object.keys(opts)) {
    if (opts[k] !== null && opts[k] !== undefined) {
      throw new BoxlintError(`boxlint: ${name}(..., { ${k} }) is not in the WebAssembly backend yet ` +
        '(set BOXLINT_LIBRARY to a native libboxlint to use it)');
    }
  }
}

/* NetworkPolicy over `w`, as the native one (lib/policy.js). */
function policyClass(w) {
  class NetworkPolicy {
    constructor(policy = {}, opts = null) {
      noSettings(opts, 'NetworkPolicy');
      const p = w.policy(policy);
      if (!p.ok) throw new PolicyError(p.diagnostics);
      this._p = p;
      /** Warnings found while compiling (allow-without-effect, duplicate-entry...). */
      this.diagnostics = Object.freeze(p.diagnostics);
      this.type = p.type;
      this.allow_out = Object.freeze(p.allow_out);
      this.deny_out = Object.freeze(p.deny_out);
    }

    /** The rules that enforce this policy, as the native NetworkPolicy.emit. */
    emit(format, opts = {}) {
      if (!Object.prototype.hasOwnProperty.call({ nftables: 0, dnsmasq: 1, nginx: 2 }, format)) {
        throw new RangeError(`format must be 'nftables', 'dnsmasq' or 'nginx', not ${JSON.stringify(format)}`);
      }
      const resolvers = opts.resolvers === undefined ? [] : opts.resolvers;
      if (!Array.isArray(resolvers) || resolvers.some((r) => typeof r !== 'string')) {
        throw new TypeError('resolvers must be an array of address strings');
      }
      if (!this._p) throw new ClosedError('boxlint: NetworkPolicy used after close()');
      const r = this._p.emit(format, { ...opts, resolvers });
      if (r.invalid) {
        throw new RangeError('emit: table, iifname and proxyUser take letters, digits, \'_\' and \'-\' (an ' +
          'interface name also \'.\', at most 15 bytes); resolvers, addresses');
      }
      if (r.diagnostics) throw new PolicyError(r.diagnostics);
      return r.text;
    }

    [Symbol.dispose]() {
      this.close();
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
  return NetworkPolicy;
}

/** The API over `w`, a loaded module (lib/wasm.js load()); `why` says why not native. */
function api(w, why) {
  const text = (t) => (typeof t === 'string' ? t : new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
  const NetworkPolicy = policyClass(w);
  const checkTemplate = (t, opts) => (noSettings(opts, 'checkTemplate'), result(w.checkTemplate(t)));
  return {
    backend: 'wasm',
    /** Why the native library was not used (the error of loading it). */
    backendReason: why,
    version: w.version,
    checkCommands: (commands, opts) => (noSettings(opts, 'checkCommands'), result(w.checkCommands(commands))),
    checkFragment: (t, opts) => (noSettings(opts, 'checkFragment'), fileResult(w, w.checkFragment(text(t)))),
    checkPython: (t, opts) => (noSettings(opts, 'checkPython'), fileResult(w, w.checkPython(text(t)))),
    applyFixes: (t, fixes, opts) => w.applyFixes(typeof t === 'string' ? t : text(t), fixes, opts),
    checkTemplate,
    validateTemplate(t, opts) {
      const r = checkTemplate(t, opts);
      if (!r.ok) throw new ValidationError(r.diagnostics);
      return r;
    },
    NetworkPolicy,
    rules: () => w.rules(),
    rule(id) {
      if (typeof id !== 'string') throw new TypeError(`rule id must be a string, not ${typeName(id)}`);
      const r = w.findRule(id);
      if (!r) throw new RangeError(`unknown rule ${JSON.stringify(id)} (rules() lists them)`);
      return r;
    },
    explain(id) {
      this.rule(id);
      return w.explain(id);
    },
    checkBinding(b, opts) {
      noSettings(opts, 'checkBinding');
      if (b === null || typeof b !== 'object' || Array.isArray(b)) {
        throw new TypeError(`binding must be an object, not ${typeName(b)}`);
      }
      return result(w.checkBinding(b, spell));
    },
    checkFile: notYet('checkFile'),
    Config: notYet('Config'),
    BoxlintError,
    ValidationError,
    PolicyError,
    ConfigError,
    ClosedError,
  };
}

module.exports = { api };
