// Type definitions for boxlint (Node.js bindings over libboxlint).

export type Severity = 'error' | 'warning' | 'info';

/** Replace bytes [offset, offset + length) of the command (UTF-8) with `text`. Policy fixes
 *  are list-relative: `text` replaces entries [offset, offset + length) of the list the fix's
 *  description names (allow-without-effect and domains-require-deny-all: insert into deny_out
 *  at index `offset`, length 0; a non-ASCII entry: replace it with its A-label, length 1). */
export interface Fix {
  offset: number;
  length: number;
  text: string;
  description: string | null;
  /** True for a fix that changes what the template or policy does (adding ALL_TRAFFIC to
   *  deny_out turns egress from allow-all into deny-all; invalid-name's slug renames the
   *  template): applyFixes and fixed() leave it out unless given {unsafeFixes: true}. */
  unsafe: boolean;
  /** The same as a word, as the command's JSON output writes it. */
  applicability: 'safe' | 'unsafe';
}

/** Options of applyFixes and fixed(). */
export interface ApplyOptions {
  /** Apply unsafe fixes too (boxlint --fix --unsafe-fixes). Default false. */
  unsafeFixes?: boolean;
}

/** One finding. `command` is the command's index, or null for a finding about a field (then
 *  `path` names it, e.g. "network_policy.allow_out[2]", and `line` is 0). Lines and columns are
 *  1-based, columns count Unicode code points; offsets are UTF-8 byte offsets; ends exclusive. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  command: number | null;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset: number;
  endOffset: number;
  path: string | null;
  message: string;
  hint: string | null;
  fix: Fix | null;
  /** Sub-reason, e.g. "url" or "host-bits" for invalid-policy-entry. */
  detail: string | null;
}

/** How the library read one command. */
export interface Instruction {
  index: number;
  /** "RUN", ...; null when unknown or empty. */
  keyword: string | null;
  /** ONBUILD's trigger keyword. */
  trigger: string | null;
  line: number;
  endLine: number;
}

export interface Result {
  diagnostics: Diagnostic[];
  instructions: Instruction[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
  /** True when nothing would make the platform reject the template. */
  ok: boolean;
}

/** A result whose positions and fix offsets are in the checked text (checkPython,
 *  checkFragment), so its fixes can be applied to that text. */
export interface FileResult extends Result {
  /** The checked text with every safe fix applied in one pass (applyFixes over
   *  `diagnostics`; the unsafe ones too with {unsafeFixes: true}); fixes left out by a
   *  conflict need a second check and fix. Not enumerable. */
  fixed(text: string, opts?: ApplyOptions): string;
  /** A Buffer (typed as Uint8Array, its base class, so that no Node.js typings are needed). */
  fixed(text: Uint8Array, opts?: ApplyOptions): Uint8Array;
}

/** What applyFixes did: the new text, and for each fix given whether it was applied. */
export interface AppliedFixes<T extends string | Uint8Array> {
  /** A string for a string, a new Buffer for a Buffer or Uint8Array. */
  text: T;
  applied: boolean[];
}

/** A fix as applyFixes takes it: a Fix, or any {offset, length, text} (text UTF-8 encoded). */
export interface FixInput {
  offset: number | bigint;
  length: number | bigint;
  text: string | Uint8Array;
  description?: string | null;
  /** An unsafe fix is applied only with {unsafeFixes: true}. */
  unsafe?: boolean;
}

/** Limits of a check; absent keeps the library's default. */
export interface Options {
  maxCommands?: number;
  maxCommandBytes?: number;
  escape?: '\\' | '`';
  cpuMin?: number;
  cpuMax?: number;
  memoryMin?: number;
  memoryMax?: number;
}

export interface CheckOptions {
  /** Without a config (or null), checks use the built-in defaults, as the command does without
   *  a .boxlint.json: the errors and every warning at its default severity. A Config changes
   *  severities or switches warnings off; the library applies it to every finding. */
  config?: Config | null;
  options?: Options | null;
}

/** The platform's NetworkPolicy, as the SDK sends it. */
export interface NetworkPolicySpec {
  type?: 'disabled' | 'open' | 'filtered' | string | null;
  allow_out?: string[] | null;
  deny_out?: string[] | null;
}

/** Options of checkPython: those of every check plus the NetworkPolicy options. */
export interface PythonCheckOptions extends CheckOptions {
  compat?: 'e2b' | null;
  /** Verdict for destinations no entry matches under "filtered" (default "allow"). */
  unmatched?: 'allow' | 'deny';
  maxEntries?: number;
}

/** An agent binding as agents.add_code_interpreter sends it. Other keys are reported as
 *  unknown-field. Values of the wrong type are findings (spelt as JSON), not exceptions. */
export interface Binding {
  /** A builtin id ("python-4g") or a template name; absent: missing-field. */
  template_id?: string | unknown;
  /** An integer >= 1 (absent: 1). */
  version?: number | bigint | unknown;
  /** An integer > 0 (absent: 1200); outside 60..86400: unusual-lifespan. */
  lifespan_seconds?: number | bigint | unknown;
  network_policy?: NetworkPolicySpec | NetworkPolicy | null;
  [unknownField: string]: unknown;
}

/** A template as the platform receives it. Other keys are reported as unknown-field. */
export interface Template {
  name?: string | null;
  commands?: Array<string | Uint8Array> | null;
  /** An integer; a fraction (2.5) is reported as invalid-resources. */
  cpu_count?: number | bigint | null;
  memory_mb?: number | bigint | null;
  network_policy?: NetworkPolicySpec | NetworkPolicy | null;
  [unknownField: string]: unknown;
}

export interface Decision {
  verdict: 'allow' | 'deny' | 'unknown';
  reason: 'rule' | 'default' | 'policy-disabled' | 'policy-open' | 'invalid-destination' | 'needs-ip';
  list: 'allow_out' | 'deny_out' | null;
  index: number | null;
  /** The deciding entry's normalised text. */
  entry: string | null;
  /** A domain entry allowed it: connect by name and check the resolved addresses again. */
  byName: boolean;
}

export interface RuleInfo {
  id: string;
  severity: Severity;
  summary: string;
  description: string;
  bad: string;
  good: string;
}

export interface UserRule {
  id: string;
  /** PCRE2, matched against the logical instruction and each heredoc body. */
  pattern: string;
  message?: string;
  severity?: Severity;
  /** "RUN", ...; absent or "*": every instruction. */
  instruction?: string | null;
}

export interface ConfigInit {
  /** Rule id to "error" | "warning" | "info" | "off". */
  severities?: Record<string, Severity | 'off'>;
  userRules?: UserRule[];
  matchLimit?: number;
  depthLimit?: number;
}

/** Version of the loaded C library, from boxlint_version(). */
export const version: string;
/** Which library answers: the native one (koffi) or, where none loads, the WebAssembly build. */
export const backend: 'native' | 'wasm';

/** Check a template (name, commands, cpu_count, memory_mb, network_policy). */
export function checkTemplate(template: Template, opts?: CheckOptions): Result;
/** checkTemplate, throwing ValidationError when the platform would reject the template. */
export function validateTemplate(template: Template, opts?: CheckOptions): Result;
/** Check a list of commands (one Dockerfile instruction each). */
export function checkCommands(commands: Array<string | Uint8Array>, opts?: CheckOptions): Result;
/** Check a Dockerfile fragment; positions and fixes are in the file. */
export function checkFragment(text: string | Uint8Array, opts?: CheckOptions): FileResult;
/** Check the SDK calls of a Python source file; positions and fixes are in the file. A file
 *  that is not valid Python gives a result with one python-syntax error (no exception). */
export function checkPython(source: string | Uint8Array, opts?: PythonCheckOptions): FileResult;
/** Check an agent binding (template_id, version, lifespan_seconds, network_policy). */
export function checkBinding(binding: Binding, opts?: CheckOptions): Result;
/** Apply fixes (or diagnostics' fixes; those without one are skipped) to a text in one pass,
 *  with the library's boxlint_apply_fixes. Offsets are UTF-8 byte offsets. A fix that overlaps
 *  one taken before it (offset order), a second insertion at one offset, or one outside the
 *  text is not applied; nor is an unsafe fix unless opts.unsafeFixes. */
export function applyFixes(text: string,
  fixes: Iterable<FixInput | Diagnostic | null | undefined>,
  opts?: ApplyOptions): AppliedFixes<string>;
export function applyFixes(text: Uint8Array,
  fixes: Iterable<FixInput | Diagnostic | null | undefined>,
  opts?: ApplyOptions): AppliedFixes<Uint8Array>;

declare class Owned {
  /** True once close() ran. */
  readonly closed: boolean;
  /** Free the C object now. Idempotent; later use throws ClosedError. */
  /** Also available as [Symbol.dispose]() where the runtime defines Symbol.dispose. */
  close(): void;
}

/** A NetworkPolicy validated and compiled once (throws PolicyError when it has errors). */
export class NetworkPolicy extends Owned {
  constructor(policy?: NetworkPolicySpec, opts?: {
    compat?: 'e2b' | null;
    /** Verdict for destinations no entry matches under "filtered" (default "allow"). */
    unmatched?: 'allow' | 'deny';
    maxEntries?: number;
    /** The warnings' severities (null: their defaults). */
    config?: Config | null;
  });
  /** Warnings found while compiling, at the config's severities. */
  readonly diagnostics: readonly Diagnostic[];
  readonly type: 'disabled' | 'open' | 'filtered';
  /** Normalised entries. */
  readonly allow_out: readonly string[];
  readonly deny_out: readonly string[];
  readonly compat: 'e2b' | null;
  readonly unmatched: 'allow' | 'deny';
  decide(destination: { host?: string | null; ip?: string | null }): Decision;
  /** The nftables script, dnsmasq configuration or nginx proxy layer that enforces the policy
   *  (the README's "Enforcing a policy" says what they enforce and refuse).
   *  Throws PolicyError (unenforceable-entry) when none enforces it exactly. */
  emit(format: 'nftables' | 'dnsmasq' | 'nginx',
       opts?: { table?: string; iifname?: string | null; resolvers?: string[];
                proxyUser?: string | null }): string;
}

/** Warning severities and user rules, compiled once; immutable afterwards. */
export class Config extends Owned {
  constructor(init?: ConfigInit);
  /** From the .boxlint.json shape: {rules: {id: severity}, user_rules: [...]}. */
  static fromObject(obj: { rules?: Record<string, string>; user_rules?: UserRule[] }): Config;
  severity(ruleId: string): Severity | 'off';
  readonly userRuleIds: string[];
}

export function rules(): RuleInfo[];
/** Throws RangeError for an unknown rule. */
export function rule(id: string): RuleInfo;
/** The explanation as `boxlint explain` prints it. */
export function explain(id: string): string;

export class BoxlintError extends Error {}
export class ValidationError extends BoxlintError {
  constructor(diagnostics: Diagnostic[]);
  /** Every error diagnostic (the SDK's ValidationError.errors). */
  errors: Diagnostic[];
  diagnostics: Diagnostic[];
}
export class PolicyError extends ValidationError {}
export class ConfigError extends BoxlintError {
  offset: number;
  status: string;
}
export class ClosedError extends BoxlintError {}

/** What the command found in one file (checkFile). */
export interface FileResult {
  path: string;
  /** false when the command does not check this file (not a template, binding, policy,
   *  fragment or Python file, or excluded): then `diagnostics` is empty. */
  checked: boolean;
  diagnostics: Diagnostic[];
  errors: Diagnostic[];
  ok: boolean;
}

/** Check a file exactly as `boxlint FILE` checks it in a directory walk (it runs the command
 *  this package carries): kind, configuration, suppressions and positions are the command's. */
export function checkFile(file: string,
                          opts?: { text?: string | Uint8Array; config?: string; args?: string[] }): FileResult;
