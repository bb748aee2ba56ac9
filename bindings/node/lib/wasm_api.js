'use strict';
// The package's API over the WebAssembly build (lib/wasm.js), for where no native library
// loads (index.js): the checks with their settings (Config, options, the policy options),
// NetworkPolicy with its decisions and emitted rules, the rule table, and checkFile (the
// WebAssembly build of the command under node:wasi, lib/wasi.js), with the native binding's
// shapes, validation and errors (lib/settings.js holds what both backends share). What the
// WebAssembly build itself leaves out: docs/bindings.md, "WebAssembly".
const fs = require('fs');
const os = require('os');
const path = require('path');
const {
  BoxlintError, ValidationError, PolicyError, ConfigError, ClosedError,
} = require('./error_classes');
const { typeName, spell } = require('./values');
const {
  configClass, optionFields, policyArgs, names, upTo32, COMPAT_VALUES,
} = require('./settings');
const { checkFileWith, runNative } = require('./file');
const { layout } = require('./wasm_core');

const SPAN = layout([['ptr', 'ptr'], ['len', 'size']]);
const USER_RULE = layout([['id', SPAN], ['severity', 'i32'], ['instruction', 'i32'],
  ['pattern', SPAN], ['message', SPAN]]);
const POLICY_UNMATCHED = 8; // boxlint_policy_options: size, max_entries, unmatched (wasm32)
const ERROR_MESSAGE = 8; // boxlint_error: code, offset, message[192] (wasm32)
const OPTIONS_ESCAPE = 12; // boxlint_options: size, max_commands, max_command_bytes, escape

/** What lib/settings.js asks of the library, over the module `w` (its C API). */
function library(w) {
  const x = w.x;
  const text = (alloc, t) => w.put(alloc, t);
  const failed = (st, err) => (st === 0 ? null : {
    enomem: w.str(x.boxlint_status_str(st)) === 'BOXLINT_ENOMEM', status: w.str(x.boxlint_status_str(st)),
    message: w.str(err + ERROR_MESSAGE), offset: w.u32(err + 4),
  });
  const L = {
    severityOf: (name) => w.scope((alloc) => {
      const [p, n] = text(alloc, name);
      const out = alloc(4);
      return x.boxlint_severity_parse(p, n, out) === 0 ? w.i32(out) : -1;
    }),
    severityName: (v) => w.str(x.boxlint_severity_str(v)),
    keywordOf: (name) => w.scope((alloc) => x.boxlint_keyword_parse(...text(alloc, name))),
    USER_RULE_FIELDS: Object.keys(names((i) => w.str(x.boxlint_user_rule_field(i)), upTo32)),
    USER_RULE_SEVERITY: w.scope((alloc) => {
      const r = alloc(USER_RULE.size);
      x.boxlint_user_rule_init(r);
      return w.str(x.boxlint_severity_str(w.i32(r + USER_RULE.off.severity)));
    }),
    UNMATCHED: names((v) => w.str(x.boxlint_policy_unmatched_str(v)), upTo32),
    COMPAT: names((v) => w.str(x.boxlint_policy_compat_str(v)), COMPAT_VALUES),
    DEFAULT_UNMATCHED: w.scope((alloc) => w.str(x.boxlint_policy_unmatched_str(
      w.i32(w.policyOptions(alloc) + POLICY_UNMATCHED)))),
    escapeOk: (c) => w.scope((alloc) => x.boxlint_options_check(w.options(alloc, { options: { escape: c } })) === 0),
    defaultSeverity: (id) => {
      const r = w.findRule(id);
      return r ? r.severity : null;
    },
    configNew: () => w.scope((alloc) => {
      const out = alloc(4);
      const st = x.boxlint_config_new(out, 0);
      const name = w.str(x.boxlint_status_str(st));
      if (name === 'BOXLINT_ENOMEM') throw new RangeError('boxlint: out of memory in boxlint_config_new');
      if (st !== 0) throw new BoxlintError(`boxlint: boxlint_config_new failed: ${name}`);
      return w.u32(out);
    }),
    configFree: (p) => x.boxlint_config_free(p),
    addRule: (p, r) => w.scope((alloc) => {
      const rp = alloc(USER_RULE.size);
      x.boxlint_user_rule_init(rp);
      for (const k of ['id', 'pattern', 'message']) {
        const [sp, n] = text(alloc, r[k]);
        w.dv.setUint32(rp + USER_RULE.off[k], sp, true);
        w.dv.setUint32(rp + USER_RULE.off[k] + 4, n, true);
      }
      w.dv.setInt32(rp + USER_RULE.off.severity, r.severity, true);
      w.dv.setInt32(rp + USER_RULE.off.instruction, r.instruction, true);
      const err = alloc(ERROR_MESSAGE + 192);
      return failed(x.boxlint_config_add_rule(p, rp, err), err);
    }),
    setSeverity: (p, id, sev) => w.scope((alloc) => {
      const [ip, n] = text(alloc, id);
      const err = alloc(ERROR_MESSAGE + 192);
      return failed(x.boxlint_config_set_severity(p, ip, n, sev, err), err);
    }),
    setLimits: (p, m, d) => x.boxlint_config_set_limits(p, m, d),
    setPythonMinor: (p, m) => x.boxlint_config_set_python_minor(p, m),
    getSeverity: (p, id, def) => w.scope((alloc) => x.boxlint_config_get_severity(p, ...text(alloc, id), def)),
    ruleCount: (p) => x.boxlint_config_rule_count(p),
    ruleId: (p, i) => w.str(x.boxlint_config_rule_id(p, i)),
  };
  return L;
}

/* The command as WebAssembly (wasm/boxlint-cli.wasm; $BOXLINT_WASM_CLI), as checkFile's
 * runner: its input and output through files, since WASI's streams are host descriptors.
 * $BOXLINT_COMMAND, when set, is run natively as on the native backend. */
function runWasm(argv, input) {
  if (process.env.BOXLINT_COMMAND) return runNative(argv, input);
  const { runCommand } = require('./wasi');
  const file = process.env.BOXLINT_WASM_CLI || path.join(__dirname, '..', 'wasm', 'boxlint-cli.wasm');
  if (!fs.existsSync(file)) throw new BoxlintError(`boxlint: cannot run ${file}: no such file`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxlint-'));
  const fds = [];
  const open = (name, flags) => {
    const fd = fs.openSync(path.join(dir, name), flags);
    fds.push(fd);
    return fd;
  };
  try {
    fs.writeFileSync(path.join(dir, 'in'), input || Buffer.alloc(0));
    let status;
    try {
      status = runCommand(file, argv, { stdin: open('in', 'r'), stdout: open('out', 'w'), stderr: open('err', 'w') });
    } catch (e) {
      throw new BoxlintError(`boxlint: the WebAssembly command stopped: ${e.message}`);
    }
    return {
      status, stdout: fs.readFileSync(path.join(dir, 'out')), stderr: fs.readFileSync(path.join(dir, 'err')),
    };
  } finally {
    for (const fd of fds) fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

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

/* The boxlint_policy_options fields of checked policy arguments (policyArgs). */
function policyFields(L, args) {
  return { unmatched: L.UNMATCHED[args.unmatched], compat: L.COMPAT[args.compat], max_entries: args.maxEntries };
}

/* NetworkPolicy over `w`, as the native one (lib/policy.js). */
function policyClass(w, L, configPtr) {
  // A forgotten policy's C object is freed by the collector, as native's (lib/owned.js).
  const registry = new FinalizationRegistry((p) => p.close());
  class NetworkPolicy {
    constructor(policy = {}, { compat = null, unmatched = L.DEFAULT_UNMATCHED, maxEntries = 0,
      config = null } = {}) {
      const args = policyArgs(L, { compat, unmatched, maxEntries });
      const cp = configPtr(config);
      const p = w.policy(policy, { config: cp, policy: policyFields(L, args) });
      if (!p.ok) throw new PolicyError(p.diagnostics);
      this._p = p;
      registry.register(this, p, this);
      this._spec = { type: policy.type, allow_out: policy.allow_out, deny_out: policy.deny_out };
      this._args = args;
      this.compat = compat === undefined ? null : compat;
      this.unmatched = unmatched;
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

    /** True once close() ran. */
    get closed() {
      return !this._p;
    }

    close() {
      if (this._p) {
        registry.unregister(this);
        this._p.close();
      }
      this._p = null;
    }
  }
  return NetworkPolicy;
}

/* The checks over `w` with their settings: `configPtr` a Config's address (null: the default
 * config), `NetworkPolicy` the class of policyClass. */
function checks(w, L, configPtr, NetworkPolicy) {
  const text = (t) => (typeof t === 'string' ? t : new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
  /* The settings of a check (wasm_core.js options()), checked as native checks them. */
  const settings = (config, options) => {
    const cp = configPtr(config);
    return { config: cp, options: optionFields(L, options) };
  };
  /* A template's or a binding's network_policy: a compiled NetworkPolicy keeps its own policy
   * options, under the call's config; a plain object has the defaults. */
  const policyInput = (np, s) => {
    if (!(np instanceof NetworkPolicy)) return [np, { config: s.config }];
    if (!np._p) throw new ClosedError('NetworkPolicy is closed');
    return [np._spec, { config: s.config, policy: policyFields(L, np._args) }];
  };
  const checkTemplate = (t, { config = null, options = null } = {}) => {
    if (t === null || typeof t !== 'object' || Array.isArray(t)) {
      throw new TypeError(`template must be an object, not ${typeName(t)}`);
    }
    const s = settings(config, options);
    const np = t.network_policy;
    if (np === undefined || np === null) return result(w.checkTemplate(t, s));
    const [spec, ps] = policyInput(np, s);
    return result(w.checkTemplate({ ...t, network_policy: spec }, s, ps));
  };
  return {
    checkCommands: (commands, { config = null, options = null } = {}) => result(
      w.checkCommands(commands, settings(config, options))),
    checkFragment: (t, { config = null, options = null } = {}) => fileResult(w,
      w.checkFragment(text(t), settings(config, options))),
    checkPython(t, { config = null, options = null, compat = null, unmatched = L.DEFAULT_UNMATCHED,
      maxEntries = 0 } = {}) {
      const s = settings(config, options);
      s.policy = policyFields(L, policyArgs(L, { compat, unmatched, maxEntries }));
      return fileResult(w, w.checkPython(text(t), s));
    },
    applyFixes: (t, fixes, opts) => w.applyFixes(typeof t === 'string' ? t : text(t), fixes, opts),
    checkTemplate,
    validateTemplate(t, opts) {
      const r = checkTemplate(t, opts);
      if (!r.ok) throw new ValidationError(r.diagnostics);
      return r;
    },
    checkBinding(b, { config = null, options = null } = {}) {
      if (b === null || typeof b !== 'object' || Array.isArray(b)) {
        throw new TypeError(`binding must be an object, not ${typeName(b)}`);
      }
      const s = settings(config, options);
      const np = b.network_policy;
      if (np === undefined || np === null) return result(w.checkBinding(b, spell, s));
      const [spec, ps] = policyInput(np, s);
      return result(w.checkBinding({ ...b, network_policy: spec }, spell, s, ps));
    },
    /** checkFile (lib/file.js) with the WebAssembly build of the command. */
    checkFile: (file, opts) => checkFileWith(runWasm, file, opts),
  };
}

/** The API over `w`, a loaded module (lib/wasm.js load()); `why` says why not native. */
function api(w, why) {
  const L = library(w);
  const Config = configClass(L);
  /* config: null is the module's default config (every warning at its default severity, as
   * native's), kept for the module's life. */
  const configPtr = (config) => {
    if (config === undefined || config === null) return w.config;
    if (!(config instanceof Config)) {
      throw new TypeError(`config must be a boxlint Config, not ${typeName(config)}`);
    }
    return config._use();
  };
  const NetworkPolicy = policyClass(w, L, configPtr);
  return {
    backend: 'wasm',
    /** Why the native library was not used (the error of loading it). */
    backendReason: why,
    version: w.version,
    ...checks(w, L, configPtr, NetworkPolicy),
    NetworkPolicy,
    Config,
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
    BoxlintError,
    ValidationError,
    PolicyError,
    ConfigError,
    ClosedError,
  };
}

module.exports = { api };
