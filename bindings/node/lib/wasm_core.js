'use strict';
// The WebAssembly build's core, shared by Node.js (lib/wasm.js, which adds loading the file) and
// the browser (playground/, which loads this file as a classic <script> and finds it as
// globalThis.boxlintWasm): boxlint.wasm (built by wasm/CMakeLists.txt, a WASI reactor exporting
// the library's public C API and malloc/free), called from JavaScript over the module's memory.
// Nothing here needs Node.js: no require, no file system. Results have the shape of the native
// binding's (lib/report.js diagFrom).
// What the WebAssembly build leaves out (wasm/CMakeLists.txt, docs/bindings.md): IDNA A-labels
// (no libidn2), \N{name} beyond CPython's rule-made names and aliases and non-ASCII identifiers
// (no libunistring), single-byte Python encodings; and user rules and the secret patterns only
// where it was built without Debian's pcre2 source.
//
// Layout: wasm32's C ABI, natural alignment, 4-byte pointers and size_t. Only the few imports a
// WASI reactor built from wasi-libc asks for are given (fd_write to stderr; nothing else is
// reachable), so the module needs neither node:wasi nor a file system, and loads in a browser.
{
  const SEVERITY = ['off', 'info', 'warning', 'error'];

  /* Field layout of a C struct on wasm32: [name, type] with type 'i32' | 'u32' | 'ptr' | 'size' |
   * 'i64' | 'char' | another layout. Returns {size, align, off: {name: offset}}. */
  function layout(fields) {
    const prim = { char: 1, i32: 4, u32: 4, ptr: 4, size: 4, i64: 8 };
    let off = 0;
    let align = 1;
    const o = {};
    for (const [name, t] of fields) {
      const sz = typeof t === 'string' ? prim[t] : t.size;
      const al = typeof t === 'string' ? prim[t] : t.align;
      off = Math.ceil(off / al) * al;
      o[name] = off;
      off += sz;
      align = Math.max(align, al);
    }
    return { size: Math.ceil(off / align) * align, align, off: o };
  }
  const SPAN = layout([['ptr', 'ptr'], ['len', 'size']]);
  const FIX = layout([['offset', 'size'], ['length', 'size'], ['text', 'ptr'], ['text_len', 'size'],
    ['description', 'ptr'], ['safety', 'i32']]);
  const DIAG = layout([['rule', 'ptr'], ['severity', 'i32'], ['command', 'i32'], ['path', 'ptr'],
    ['line', 'u32'], ['column', 'u32'], ['end_line', 'u32'], ['end_column', 'u32'],
    ['offset', 'size'], ['end_offset', 'size'], ['message', 'ptr'], ['hint', 'ptr'],
    ['detail', 'ptr'], ['fix', 'ptr']]);
  const NUMBER = layout([['present', 'i32'], ['is_integer', 'i32'], ['value', 'i64'], ['text', 'ptr']]);
  const EMIT_OPTIONS = layout([['size', 'size'], ['table', 'ptr'], ['iifname', 'ptr'],
    ['resolvers', 'ptr'], ['nresolvers', 'size'], ['proxy_user', 'ptr'], ['proxy_http_port', 'u32'],
    ['proxy_tls_port', 'u32']]);
  const EMIT_FORMATS = { nftables: 0, dnsmasq: 1, nginx: 2 };
  const EINVAL = -1;
  const TEMPLATE = layout([['name', SPAN], ['has_name', 'i32'], ['commands', 'ptr'],
    ['ncommands', 'size'], ['has_commands', 'i32'], ['cpu_count', NUMBER], ['memory_mb', NUMBER],
    ['extra_fields', 'ptr'], ['nextra_fields', 'size']]);
  const POLICY_SPEC = layout([['type', SPAN], ['allow_out', 'ptr'], ['n_allow', 'size'],
    ['deny_out', 'ptr'], ['n_deny', 'size']]);
  const DECISION = layout([['verdict', 'i32'], ['reason', 'i32'], ['list', 'i32'], ['index', 'i32'],
    ['entry', SPAN], ['by_name', 'i32']]);
  const OPTIONS = layout([['size', 'size'], ['max_commands', 'size'], ['max_command_bytes', 'size'],
    ['escape', 'char'], ['config', 'ptr'], ['cpu_min', 'i64'], ['cpu_max', 'i64'],
    ['memory_min', 'i64'], ['memory_max', 'i64'], ['no_instructions', 'i32']]);
  const POLICY_OPTIONS = layout([['size', 'size'], ['max_entries', 'size'], ['unmatched', 'i32'],
    ['compat', 'u32'], ['path_prefix', SPAN], ['config', 'ptr']]);
  const BINDING = layout([['template_id', SPAN], ['has_template_id', 'i32'],
    ['template_id_not_string', 'i32'], ['template_text', 'ptr'], ['version', NUMBER],
    ['lifespan_seconds', NUMBER], ['extra_fields', 'ptr'], ['nextra_fields', 'size']]);
  const RULE_INFO = layout([['id', 'ptr'], ['severity', 'i32'], ['summary', 'ptr'],
    ['description', 'ptr'], ['bad', 'ptr'], ['good', 'ptr']]);

  const ESYNTAX = -3;

  class WasmBoxlint {
    constructor(instance) {
      this.x = instance.exports;
      this.enc = new TextEncoder();
      this.dec = new TextDecoder('utf-8', { fatal: false });
      this.version = this.str(this.x.boxlint_version());
      // The fields the library knows; any other key of an object is an unknown field.
      const names = (f) => {
        const out = new Set();
        for (let i = 0, p; i < 64 && (p = f(i)); i++) out.add(this.str(p));
        return out;
      };
      this.templateFields = names(this.x.boxlint_template_field);
      this.bindingFields = names(this.x.boxlint_binding_field);
      // The built-in defaults, as the native binding and the command use without a config: every
      // warning at its default severity (NULL options would give the errors only). Kept for the
      // instance's life, as the native binding keeps its default Config.
      const out = this.x.malloc(4);
      this.status(this.x.boxlint_config_new(out, 0), 'boxlint_config_new');
      this.config = this.u32(out);
      this.x.free(out);
    }

    /* boxlint_options and boxlint_policy_options: `s` (optional) the settings of the call,
     * {config (a config's address; absent: the default config), options ({max_commands, ...,
     * escape}: boxlint_options fields by their C names, values the library's), policy
     * ({unmatched, compat, max_entries}: boxlint_policy_options fields)}. */
    options(alloc, s) {
      const o = alloc(Math.max(OPTIONS.size, this.x.boxlint_options_size()));
      this.x.boxlint_options_init(o);
      const f = (s && s.options) || {};
      for (const [k, v] of Object.entries(f)) {
        const at = o + OPTIONS.off[k];
        if (k === 'escape') this.dv.setUint8(at, v);
        else if (/^(cpu|memory)_/.test(k)) this.dv.setBigInt64(at, BigInt(v), true);
        else this.dv.setUint32(at, Math.min(v, 0xffffffff), true); // size_t: 32 bits here
      }
      this.dv.setUint32(o + OPTIONS.off.config, (s && s.config) || this.config, true);
      return o;
    }
    policyOptions(alloc, s) {
      const o = alloc(Math.max(POLICY_OPTIONS.size, this.x.boxlint_policy_options_size()));
      this.x.boxlint_policy_options_init(o);
      const p = (s && s.policy) || {};
      if (p.unmatched !== undefined) this.dv.setInt32(o + POLICY_OPTIONS.off.unmatched, p.unmatched, true);
      if (p.compat !== undefined) this.dv.setUint32(o + POLICY_OPTIONS.off.compat, p.compat, true);
      if (p.max_entries) this.dv.setUint32(o + POLICY_OPTIONS.off.max_entries, Math.min(p.max_entries, 0xffffffff), true);
      this.dv.setUint32(o + POLICY_OPTIONS.off.config, (s && s.config) || this.config, true);
      return o;
    }

    get dv() { return new DataView(this.x.memory.buffer); }
    get u8() { return new Uint8Array(this.x.memory.buffer); }
    u32(p) { return this.dv.getUint32(p, true); }
    i32(p) { return this.dv.getInt32(p, true); }
    str(p) {
      if (!p) return null;
      const u8 = this.u8;
      let e = p;
      while (u8[e]) e++;
      return this.dec.decode(u8.subarray(p, e));
    }
    bytes(p, n) { return this.dec.decode(this.u8.subarray(p, p + n)); }

    /* One call's allocations, freed together. */
    scope(fn) {
      const live = [];
      const alloc = (n) => {
        const p = this.x.malloc(Math.max(n, 1));
        if (!p) throw new Error('boxlint (wasm): out of memory');
        live.push(p);
        this.u8.fill(0, p, p + Math.max(n, 1));
        return p;
      };
      try {
        return fn(alloc);
      } finally {
        for (const p of live) this.x.free(p);
      }
    }

    /* A string or bytes copied in: [ptr, len] (ptr of a 1-byte buffer when empty). */
    put(alloc, text) {
      const b = typeof text === 'string' ? this.enc.encode(text) : text;
      const p = alloc(b.length + 1);
      this.u8.set(b, p);
      return [p, b.length];
    }
    spans(alloc, list) {
      if (!list.length) return 0;
      const a = alloc(SPAN.size * list.length);
      list.forEach((s, i) => {
        const [p, n] = this.put(alloc, s);
        this.dv.setUint32(a + i * SPAN.size, p, true);
        this.dv.setUint32(a + i * SPAN.size + 4, n, true);
      });
      return a;
    }

    withReport(alloc, fn) {
      const out = alloc(4);
      this.status(this.x.boxlint_report_new(out, 0), 'boxlint_report_new');
      const r = this.u32(out);
      try {
        return fn(r);
      } finally {
        this.x.boxlint_report_free(r);
      }
    }
    status(st, what) {
      if (st !== 0) throw new Error(`${what}: ${this.str(this.x.boxlint_status_str(st))}`);
    }

    diag(p) {
      const o = DIAG.off;
      const fp = this.u32(p + o.fix);
      let fix = null;
      if (fp) {
        const f = FIX.off;
        const safety = this.i32(fp + f.safety);
        fix = {
          offset: this.u32(fp + f.offset), length: this.u32(fp + f.length),
          text: this.bytes(this.u32(fp + f.text), this.u32(fp + f.text_len)),
          description: this.str(this.u32(fp + f.description)), unsafe: safety === 1,
          applicability: this.str(this.x.boxlint_fix_safety_str(safety)),
        };
      }
      const cmd = this.i32(p + o.command);
      return {
        rule: this.str(this.u32(p + o.rule)), severity: SEVERITY[this.i32(p + o.severity)],
        command: cmd < 0 ? null : cmd, line: this.u32(p + o.line), column: this.u32(p + o.column),
        endLine: this.u32(p + o.end_line), endColumn: this.u32(p + o.end_column),
        offset: this.u32(p + o.offset), endOffset: this.u32(p + o.end_offset),
        path: this.str(this.u32(p + o.path)), message: this.str(this.u32(p + o.message)),
        hint: this.str(this.u32(p + o.hint)), fix, detail: this.str(this.u32(p + o.detail)),
      };
    }
    collect(r) {
      const out = [];
      for (let i = 0, n = this.x.boxlint_report_diag_count(r); i < n; i++) {
        out.push(this.diag(this.x.boxlint_report_diag(r, i)));
      }
      return { diagnostics: out, ok: !out.some((d) => d.severity === 'error') };
    }

    checkCommands(commands, s) {
      return this.scope((alloc) => this.withReport(alloc, (r) => {
        const a = this.spans(alloc, commands);
        this.status(this.x.boxlint_check_commands(r, a, commands.length, this.options(alloc, s)), 'boxlint_check_commands');
        return this.collect(r);
      }));
    }

    checkFragment(text, s) {
      return this.scope((alloc) => this.withReport(alloc, (r) => {
        const [p, n] = this.put(alloc, text);
        this.status(this.x.boxlint_check_fragment(r, p, n, this.options(alloc, s)), 'boxlint_check_fragment');
        return this.collect(r);
      }));
    }

    checkPython(source, s) {
      return this.scope((alloc) => this.withReport(alloc, (r) => {
        const [p, n] = this.put(alloc, source);
        const st = this.x.boxlint_check_python(r, p, n, this.options(alloc, s), this.policyOptions(alloc, s));
        if (st !== ESYNTAX) this.status(st, 'boxlint_check_python');
        const out = this.collect(r);
        // A syntax error: the file's calls were not read (its last finding says where).
        Object.defineProperty(out, 'syntaxError', { value: st === ESYNTAX, enumerable: false });
        return out;
      }));
    }

    /* spec: {type, allow_out, deny_out}; fills a boxlint_policy_spec. */
    policySpec(alloc, spec) {
      const s = alloc(POLICY_SPEC.size);
      const o = POLICY_SPEC.off;
      if (typeof spec.type === 'string') {
        const [p, n] = this.put(alloc, spec.type);
        this.dv.setUint32(s + o.type, p, true);
        this.dv.setUint32(s + o.type + 4, n, true);
      }
      const allow = spec.allow_out || [];
      const deny = spec.deny_out || [];
      this.dv.setUint32(s + o.allow_out, this.spans(alloc, allow), true);
      this.dv.setUint32(s + o.n_allow, allow.length, true);
      this.dv.setUint32(s + o.deny_out, this.spans(alloc, deny), true);
      this.dv.setUint32(s + o.n_deny, deny.length, true);
      return s;
    }

    number(alloc, at, v) {
      if (v === undefined || v === null) return;
      this.dv.setInt32(at + NUMBER.off.present, 1, true);
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
        this.dv.setInt32(at + NUMBER.off.is_integer, 1, true);
        this.dv.setBigInt64(at + NUMBER.off.value, BigInt(v), true);
      } else {
        this.dv.setUint32(at + NUMBER.off.text, this.put(alloc, String(v))[0], true);
      }
    }

    /* A template object as the native binding's checkTemplate takes it (strings and numbers);
     * `s` the settings of the call (options()), `ps` those of its network_policy (default `s`). */
    checkTemplate(t, s, ps) {
      return this.scope((alloc) => this.withReport(alloc, (r) => {
        const tp = alloc(TEMPLATE.size);
        const o = TEMPLATE.off;
        if (typeof t.name === 'string') {
          const [p, n] = this.put(alloc, t.name);
          this.dv.setUint32(tp + o.name, p, true);
          this.dv.setUint32(tp + o.name + 4, n, true);
          this.dv.setInt32(tp + o.has_name, 1, true);
        }
        if (Array.isArray(t.commands)) {
          this.dv.setUint32(tp + o.commands, this.spans(alloc, t.commands), true);
          this.dv.setUint32(tp + o.ncommands, t.commands.length, true);
          this.dv.setInt32(tp + o.has_commands, 1, true);
        }
        this.number(alloc, tp + o.cpu_count, t.cpu_count);
        this.number(alloc, tp + o.memory_mb, t.memory_mb);
        const extra = Object.keys(t).filter((k) => !this.templateFields.has(k));
        this.dv.setUint32(tp + o.extra_fields, this.spans(alloc, extra), true);
        this.dv.setUint32(tp + o.nextra_fields, extra.length, true);
        this.status(this.x.boxlint_check_template(r, tp, this.options(alloc, s)), 'boxlint_check_template');
        if (t.network_policy !== undefined && t.network_policy !== null) {
          const out = alloc(4);
          this.x.boxlint_policy_new(out, r, this.policySpec(alloc, t.network_policy),
            this.policyOptions(alloc, ps || s), 0);
          this.x.boxlint_policy_free(this.u32(out));
        }
        return this.collect(r);
      }));
    }

    /* An agent binding as the native checkBinding takes it (lib/checks.js): `spell` names a
     * value that is not what the field takes, as lib/values.js does for both backends. */
    checkBinding(bd, spell, s, ps) {
      return this.scope((alloc) => this.withReport(alloc, (r) => {
        const bp = alloc(BINDING.size);
        const o = BINDING.off;
        const tid = bd.template_id;
        if (tid !== undefined && tid !== null) {
          this.dv.setInt32(bp + o.has_template_id, 1, true);
          if (typeof tid === 'string') {
            const [p, n] = this.put(alloc, tid);
            this.dv.setUint32(bp + o.template_id, p, true);
            this.dv.setUint32(bp + o.template_id + 4, n, true);
          } else {
            this.dv.setInt32(bp + o.template_id_not_string, 1, true);
            this.dv.setUint32(bp + o.template_text, this.put(alloc, spell(tid))[0], true);
          }
        }
        for (const f of ['version', 'lifespan_seconds']) {
          const v = bd[f];
          if (v === undefined || v === null) continue;
          if (Number.isInteger(v) || typeof v === 'bigint') this.number(alloc, bp + o[f], Number(v));
          else {
            this.dv.setInt32(bp + o[f] + NUMBER.off.present, 1, true);
            this.dv.setUint32(bp + o[f] + NUMBER.off.text, this.put(alloc, spell(v))[0], true);
          }
        }
        const extra = Object.keys(bd).filter((k) => !this.bindingFields.has(k));
        this.dv.setUint32(bp + o.extra_fields, this.spans(alloc, extra), true);
        this.dv.setUint32(bp + o.nextra_fields, extra.length, true);
        this.status(this.x.boxlint_check_binding(r, bp, this.options(alloc, s)), 'boxlint_check_binding');
        if (bd.network_policy !== undefined && bd.network_policy !== null) {
          const out = alloc(4);
          this.x.boxlint_policy_new(out, r, this.policySpec(alloc, bd.network_policy),
            this.policyOptions(alloc, ps || s), 0);
          this.x.boxlint_policy_free(this.u32(out));
        }
        return this.collect(r);
      }));
    }

    /* A NetworkPolicy compiled: {diagnostics, ok, decide({host, ip}), close()}; `ok` false (and no
     * decide) when it has errors. */
    policy(spec, s) {
      let ptr = 0;
      const res = this.scope((alloc) => this.withReport(alloc, (r) => {
        const out = alloc(4);
        const st = this.x.boxlint_policy_new(out, r, this.policySpec(alloc, spec), this.policyOptions(alloc, s), 0);
        ptr = st === 0 ? this.u32(out) : 0;
        return this.collect(r);
      }));
      const self = this;
      const entries = (list) => (ptr ? self.scope((alloc) => {
        const out = [];
        const sp = alloc(SPAN.size);
        for (let i = 0, n = self.x.boxlint_policy_entry_count(ptr, list); i < n; i++) {
          self.x.boxlint_policy_entry_text(sp, ptr, list, i); // a struct returned through sp
          out.push(self.bytes(self.u32(sp), self.u32(sp + 4)));
        }
        return out;
      }) : []);
      return {
        ...res,
        ok: ptr !== 0,
        type: ptr ? self.str(self.x.boxlint_policy_type_str(self.x.boxlint_policy_get_type(ptr))) : null,
        allow_out: entries(0),
        deny_out: entries(1),
        /* boxlint_policy_emit: {text} or {diagnostics} (no configuration enforces it exactly) or
         * {invalid: true} (an option the library refuses, BOXLINT_EINVAL). */
        emit(format, { table = 'boxlint', iifname = null, resolvers = [], proxyUser = null } = {}) {
          if (!ptr) throw new Error('boxlint (wasm): the policy did not compile');
          return self.scope((alloc) => {
            const o = alloc(Math.max(EMIT_OPTIONS.size, self.x.boxlint_emit_options_size()));
            self.x.boxlint_emit_options_init(o);
            const off = EMIT_OPTIONS.off;
            const str = (v) => (v === null || v === undefined ? 0 : self.put(alloc, v)[0]);
            self.dv.setUint32(o + off.table, str(table), true);
            self.dv.setUint32(o + off.iifname, str(iifname), true);
            const ra = alloc(4 * Math.max(resolvers.length, 1));
            resolvers.forEach((r, i) => self.dv.setUint32(ra + 4 * i, str(r), true));
            self.dv.setUint32(o + off.resolvers, resolvers.length ? ra : 0, true);
            self.dv.setUint32(o + off.nresolvers, resolvers.length, true);
            self.dv.setUint32(o + off.proxy_user, str(proxyUser), true);
            const out = alloc(4);
            const outLen = alloc(4);
            return self.withReport(alloc, (r) => {
              const st = self.x.boxlint_policy_emit(ptr, EMIT_FORMATS[format], o, r, out, outLen, 0);
              if (st === EINVAL) return { invalid: true };
              self.status(st, 'boxlint_policy_emit');
              const op = self.u32(out);
              if (!op) return { diagnostics: self.collect(r).diagnostics };
              const text = self.bytes(op, self.u32(outLen));
              self.x.boxlint_buffer_free(op, 0);
              return { text };
            });
          });
        },
        decide({ host = null, ip = null } = {}) {
          if (!ptr) throw new Error('boxlint (wasm): the policy did not compile');
          return self.scope((alloc) => {
            const d = alloc(DECISION.size);
            const [hp, hn] = host === null ? [0, 0] : self.put(alloc, host);
            const [ipp, ipn] = ip === null ? [0, 0] : self.put(alloc, ip);
            self.status(self.x.boxlint_policy_decide(d, ptr, hp, hn, ipp, ipn), 'boxlint_policy_decide');
            const o = DECISION.off;
            const index = self.i32(d + o.index);
            const ep = self.u32(d + o.entry);
            return { // no deciding entry: list, index and entry null, as the native binding says
              verdict: self.str(self.x.boxlint_verdict_str(self.i32(d + o.verdict))),
              reason: self.str(self.x.boxlint_decision_reason_str(self.i32(d + o.reason))),
              list: index < 0 ? null : self.str(self.x.boxlint_policy_list_str(self.i32(d + o.list))),
              index: index < 0 ? null : index,
              entry: ep ? self.bytes(ep, self.u32(d + o.entry + 4)) : null,
              byName: self.i32(d + o.by_name) !== 0,
            };
          });
        },
        close() {
          if (ptr) self.x.boxlint_policy_free(ptr);
          ptr = 0;
        },
      };
    }

    /* boxlint_apply_fixes, as the native applyFixes (lib/fixes.js): `fixes` are fixes or
     * diagnostics; those without a fix, with offsets no buffer has, or unsafe without
     * opts.unsafeFixes are skipped (NULL to the library). Returns {text, applied}. */
    applyFixes(text, fixes, opts) {
      const unsafeFixes = !!(opts && opts.unsafeFixes);
      return this.scope((alloc) => {
        const [tp, tn] = this.put(alloc, text);
        const list = Array.from(fixes, (d) => (d && ('rule' in d || 'fix' in d) ? d.fix : d));
        const arr = alloc(4 * Math.max(list.length, 1));
        list.forEach((f, i) => {
          if (!f || f.offset < 0 || f.length < 0 || f.offset > 0xffffffff || f.length > 0xffffffff) return;
          if (f.unsafe === true && !unsafeFixes) return;
          const fp = alloc(FIX.size);
          const [xp, xn] = this.put(alloc, f.text);
          this.dv.setUint32(fp + FIX.off.offset, f.offset, true);
          this.dv.setUint32(fp + FIX.off.length, f.length, true);
          this.dv.setUint32(fp + FIX.off.text, xn ? xp : 0, true);
          this.dv.setUint32(fp + FIX.off.text_len, xn, true);
          this.dv.setInt32(fp + FIX.off.safety, f.unsafe === true ? 1 : 0, true);
          this.dv.setUint32(arr + 4 * i, fp, true);
        });
        const out = alloc(4);
        const outLen = alloc(4);
        const applied = alloc(Math.max(list.length, 1));
        this.status(this.x.boxlint_apply_fixes(tp, tn, arr, list.length, out, outLen, applied, 0),
          'boxlint_apply_fixes');
        const op = this.u32(out);
        const bytes = this.u8.slice(op, op + this.u32(outLen));
        this.x.boxlint_buffer_free(op, 0);
        return {
          text: typeof text === 'string' ? this.dec.decode(bytes) : bytes,
          applied: Array.from(this.u8.subarray(applied, applied + list.length), (x) => x !== 0),
        };
      });
    }

    ruleAt(p) {
      const o = RULE_INFO.off;
      return {
        id: this.str(this.u32(p + o.id)), severity: SEVERITY[this.i32(p + o.severity)],
        summary: this.str(this.u32(p + o.summary)), description: this.str(this.u32(p + o.description)),
        bad: this.str(this.u32(p + o.bad)), good: this.str(this.u32(p + o.good)),
      };
    }

    /* The rule table, in its order: [{id, severity, summary, description, bad, good}]. */
    rules() {
      return this.scope((alloc) => {
        const np = alloc(4);
        const base = this.x.boxlint_rules(np);
        const out = [];
        for (let i = 0, n = this.u32(np); i < n; i++) out.push(this.ruleAt(base + i * RULE_INFO.size));
        return out;
      });
    }

    /* boxlint_rule_find: the rule `id`, or null. */
    findRule(id) {
      return this.scope((alloc) => {
        const [p, n] = this.put(alloc, id);
        const r = this.x.boxlint_rule_find(p, n);
        return r ? this.ruleAt(r) : null;
      });
    }

    /* boxlint_rule_explain of the rule `id` (which must exist). */
    explain(id) {
      return this.scope((alloc) => {
        const [p, n] = this.put(alloc, id);
        const out = alloc(4);
        const outLen = alloc(4);
        this.status(this.x.boxlint_rule_explain(this.x.boxlint_rule_find(p, n), out, outLen, 0),
          'boxlint_rule_explain');
        const op = this.u32(out);
        const t = this.bytes(op, this.u32(outLen));
        this.x.boxlint_buffer_free(op, 0);
        return t;
      });
    }
  }

  /* The WASI imports a reactor built from wasi-libc names; only fd_write is ever reached (a
   * stray message of the C library), and goes to stderr. */
  function wasiImports(getMemory) {
    const ENOSYS = 52;
    return {
      wasi_snapshot_preview1: new Proxy({
        fd_write(fd, iovs, n, nwritten) {
          const dv = new DataView(getMemory().buffer);
          let total = 0;
          for (let i = 0; i < n; i++) {
            const p = dv.getUint32(iovs + i * 8, true);
            const l = dv.getUint32(iovs + i * 8 + 4, true);
            const bytes = new Uint8Array(getMemory().buffer, p, l);
            if (typeof process !== 'undefined' && process.stderr) process.stderr.write(bytes);
            else console.error(new TextDecoder().decode(bytes));
            total += l;
          }
          dv.setUint32(nwritten, total, true);
          return 0;
        },
        proc_exit(code) { throw new Error(`boxlint (wasm): proc_exit(${code})`); },
      }, { get: (t, k) => t[k] || (() => ENOSYS) }),
    };
  }

  /* The module's bytes instantiated, synchronously (Node.js; a browser's main thread refuses to
   * compile a module this size synchronously: instantiateAsync there). */
  function instantiate(bytes) {
    const mod = new WebAssembly.Module(bytes);
    const mem = { memory: null };
    return started(new WebAssembly.Instance(mod, wasiImports(() => mem.memory)), mem);
  }

  /* The same, as a promise (WebAssembly.instantiate): what a browser calls with fetch()'s bytes. */
  async function instantiateAsync(bytes) {
    const mem = { memory: null };
    const { instance } = await WebAssembly.instantiate(bytes, wasiImports(() => mem.memory));
    return started(instance, mem);
  }

  /* A new instance's memory made known to its imports, the reactor initialised. */
  function started(inst, mem) {
    mem.memory = inst.exports.memory;
    inst.exports._initialize();
    return new WasmBoxlint(inst);
  }

  const exported = { instantiate, instantiateAsync, layout, WasmBoxlint };
  if (typeof module === 'object' && module.exports) module.exports = exported;
  else globalThis.boxlintWasm = exported;
}
