'use strict';
// NetworkPolicy: validated and compiled once, decisions, enforcement rules.
const koffi = require('koffi');
const {
  T, C, ESYNTAX, EINVAL, LIST_ALLOW_OUT, LIST_DENY_OUT, UNMATCHED, COMPAT, EMIT_FORMATS,
  POLICY_FIELDS, DEFAULT_UNMATCHED, optionsBuffer,
} = require('./ffi');
const { PolicyError, checkStatus } = require('./errors');
const { typeName, EMPTY, span, encodeList, decodeString } = require('./inputs');
const { Owned } = require('./owned');
const { configPtr, L } = require('./config');
const { policyArgs: checkPolicyArgs } = require('./settings');
const { collect, withReport } = require('./report');

function policySpec(p) {
  if (p === null || typeof p !== 'object' || Array.isArray(p)) {
    throw new TypeError(`network_policy must be an object or a NetworkPolicy, not ${typeName(p)}`);
  }
  for (const k of Object.keys(p)) {
    if (!POLICY_FIELDS.includes(k)) {
      throw new TypeError(`network_policy: unknown key ${JSON.stringify(k)} (${POLICY_FIELDS.join(', ')})`);
    }
  }
  if (p.type !== undefined && p.type !== null && typeof p.type !== 'string') {
    throw new TypeError(`network_policy.type must be a string ('disabled', 'open', 'filtered'), not ${typeName(p.type)}`);
  }
  const allow = p.allow_out === undefined || p.allow_out === null ? []
    : encodeList(p.allow_out, 'network_policy.allow_out');
  const deny = p.deny_out === undefined || p.deny_out === null ? []
    : encodeList(p.deny_out, 'network_policy.deny_out');
  const type = typeof p.type === 'string' ? Buffer.from(p.type, 'utf8') : null;
  return { type, allow, deny };
}

/** Policy options, checked (lib/settings.js): TypeError/RangeError for what the library would
 *  not understand. */
const policyArgs = (args) => checkPolicyArgs(L, args);

/** A boxlint_policy_options buffer (the library's size: see optionsBuffer); `config`
 *  a config's pointer (null: every warning at its default severity). */
function policyOptions({
  unmatched = DEFAULT_UNMATCHED, compat = 'none', maxEntries = 0, config = null,
}) {
  const opts = optionsBuffer(T.boxlint_policy_options, C.policy_options_size);
  C.policy_options_init(opts);
  const o = koffi.decode(opts, T.boxlint_policy_options);
  o.unmatched = UNMATCHED[unmatched];
  o.compat = COMPAT[compat];
  if (maxEntries) o.max_entries = maxEntries;
  o.config = config;
  koffi.encode(opts, T.boxlint_policy_options, o);
  return opts;
}

/** boxlint_policy_new: the policy pointer, or null when the policy has errors. */
function compilePolicy(spec, report, args) {
  const opts = policyOptions(args);
  const out = [null];
  const st = C.policy_new(out, report, {
    type: spec.type ? span(spec.type) : { ptr: null, len: 0 },
    allow_out: spec.allow.length ? spec.allow.map(span) : null, n_allow: spec.allow.length,
    deny_out: spec.deny.length ? spec.deny.map(span) : null, n_deny: spec.deny.length,
  }, opts, null);
  if (st === ESYNTAX) return null;
  checkStatus(st, 'boxlint_policy_new');
  return out[0];
}

function entries(ptr, list) {
  const out = [];
  for (let i = 0, n = C.policy_entry_count(ptr, list); i < n; i++) {
    const s = C.policy_entry_text(ptr, list, i);
    out.push(decodeString(s.ptr, s.len));
  }
  return out;
}

/**
 * A NetworkPolicy ({type, allow_out, deny_out}) validated and compiled once. Throws
 * PolicyError (.errors, with .detail for invalid entries) when it has errors; warnings are in
 * .diagnostics, at the severities of `config` (null: their defaults; a warning the config
 * switches off is not there). `unmatched` ('allow' | 'deny') is the verdict for destinations
 * no entry matches under 'filtered'; `compat: 'e2b'` adds E2B's own rejections.
 */
class NetworkPolicy extends Owned {
  constructor(policy = {}, { compat = null, unmatched = DEFAULT_UNMATCHED, maxEntries = 0,
    config = null } = {}) {
    super();
    const spec = policySpec(policy);
    const args = policyArgs({ compat, unmatched, maxEntries });
    const cp = configPtr(config);
    let ptr = null;
    const diags = withReport((r) => {
      ptr = compilePolicy(spec, r, { ...args, config: cp });
      return collect(r);
    });
    if (ptr === null) throw new PolicyError(diags);
    this._own(ptr, C.policy_free);
    this._spec = spec;
    this._args = args;
    /** Warnings found while compiling (allow-without-effect, duplicate-entry...). */
    this.diagnostics = Object.freeze(diags);
    this.compat = compat === undefined ? null : compat;
    this.unmatched = unmatched;
    this.type = C.policy_type_str(C.policy_get_type(ptr));
    this.allow_out = Object.freeze(entries(ptr, LIST_ALLOW_OUT));
    this.deny_out = Object.freeze(entries(ptr, LIST_DENY_OUT));
  }

  /** The verdict for a destination: {host}, {ip} or both. A host-only query that depends on
   *  the address answers 'unknown' (reason 'needs-ip'): resolve it and ask again with ip. */
  decide({ host = null, ip = null } = {}) {
    const args = [];
    for (const [label, v] of [['host', host], ['ip', ip]]) {
      if (v === null || v === undefined) {
        args.push(null, 0);
      } else if (typeof v === 'string') {
        const b = Buffer.from(v, 'utf8');
        args.push(b.length ? b : EMPTY, b.length);
      } else {
        throw new TypeError(`${label} must be a string, not ${typeName(v)}`);
      }
    }
    if (args[0] === null && args[2] === null) throw new RangeError('decide() needs host, ip or both');
    const p = this._use();
    const out = {};
    checkStatus(C.policy_decide(out, p, ...args), 'boxlint_policy_decide');
    return {
      verdict: C.verdict_str(out.verdict),
      reason: C.reason_str(out.reason),
      list: C.policy_list_str(out.list),
      index: out.index < 0 ? null : out.index,
      entry: out.entry.ptr ? decodeString(out.entry.ptr, out.entry.len) : null,
      byName: out.by_name !== 0,
    };
  }

  /**
   * The rules that enforce this policy (the README's "Enforcing a policy"): format 'nftables'
   * (a script for nft -f), 'dnsmasq' (the configuration whose nftset= lines fill the script's
   * sets) or 'nginx' (the proxy layer: TLS decided by SNI, HTTP by Host). proxyUser: with
   * 'nftables', send TCP 80 and 443 to the proxy and drop UDP 443; with 'nginx', its user. iifname: filter what a host forwards from that interface; resolvers: upstream DNS servers kept reachable.
   * Throws PolicyError with the unenforceable-entry errors when no configuration enforces the
   * policy exactly, RangeError for a bad option.
   */
  emit(format, { table = 'boxlint', iifname = null, resolvers = [], proxyUser = null } = {}) {
    const fmt = Object.prototype.hasOwnProperty.call(EMIT_FORMATS, format) ? EMIT_FORMATS[format]
      : undefined;
    if (fmt === undefined || typeof format !== 'string') {
      throw new RangeError(`format must be 'nftables', 'dnsmasq' or 'nginx', not ${JSON.stringify(format)}`);
    }
    if (!Array.isArray(resolvers) || resolvers.some((r) => typeof r !== 'string')) {
      throw new TypeError('resolvers must be an array of address strings');
    }
    const opts = optionsBuffer(T.boxlint_emit_options, C.emit_options_size);
    C.emit_options_init(opts);
    const o = koffi.decode(opts, T.boxlint_emit_options);
    o.table = table;
    o.iifname = iifname;
    o.resolvers = resolvers.length ? resolvers : null;
    o.nresolvers = resolvers.length;
    o.proxy_user = proxyUser;
    const p = this._use();
    const out = [null];
    const outLen = [0];
    let st;
    const diags = withReport((r) => {
      st = C.policy_emit(p, fmt, o, r, out, outLen, null);
      return collect(r);
    });
    if (st === EINVAL) {
      throw new RangeError('emit: table, iifname and proxyUser take letters, digits, \'_\' and \'-\' (an ' +
        'interface name also \'.\', at most 15 bytes); resolvers, addresses');
    }
    checkStatus(st, 'boxlint_policy_emit');
    if (!out[0]) throw new PolicyError(diags);
    try {
      return Buffer.from(new Uint8Array(koffi.view(out[0], Number(outLen[0])))).toString('utf8');
    } finally {
      C.buffer_free(out[0], null);
    }
  }
}

module.exports = {
  NetworkPolicy,
  policySpec,
  policyArgs,
  policyOptions,
  compilePolicy,
};
