/* boxlint/policy.h: NetworkPolicy entries, compiled policies, decisions (docs/design.md §3). */
#ifndef boxlint_POLICY_H
#define boxlint_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include "boxlint/export.h"
#include "boxlint/alloc.h"
#include "boxlint/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/*==============================================================================================
 * MARK: Names
 *============================================================================================*/

/** A policy's `type`. Absent means BOXLINT_POLICY_DISABLED. */
typedef enum boxlint_policy_type {
  BOXLINT_POLICY_DISABLED = 0, /**< all egress blocked (the default) */
  BOXLINT_POLICY_OPEN = 1,     /**< all egress allowed */
  BOXLINT_POLICY_FILTERED = 2  /**< allow_out / deny_out decide */
} boxlint_policy_type;

/** One of the two lists of a policy. */
typedef enum boxlint_policy_list {
  BOXLINT_LIST_NONE = -1,     /**< no entry (a decision by default or by type) */
  BOXLINT_LIST_ALLOW_OUT = 0, /**< `allow_out` */
  BOXLINT_LIST_DENY_OUT = 1   /**< `deny_out` */
} boxlint_policy_list;

/** What a destination matched by neither list gets under `filtered`. */
typedef enum boxlint_policy_unmatched {
  BOXLINT_UNMATCHED_ALLOW = 0, /**< E2B's enforcement (the default) */
  BOXLINT_UNMATCHED_DENY = 1   /**< platforms whose firewall denies what no entry allows */
} boxlint_policy_unmatched;

/** Compatibility modes: bits, combined with `|`. */
typedef enum boxlint_policy_compat {
  BOXLINT_COMPAT_NONE = 0,
  /** Also report what E2B's API rejects or enforces differently: `domains-require-deny-all`,
   *  `compat-deny-domain`, `compat-ipv6`, and `0.0.0.0/n` (0 < n < 32) as
   *  `invalid-policy-entry` with detail `unspecified`. */
  BOXLINT_COMPAT_E2B = 1
} boxlint_policy_compat;

/** The verdict of a decision. */
typedef enum boxlint_verdict {
  BOXLINT_VERDICT_ALLOW = 0,
  BOXLINT_VERDICT_DENY = 1,
  BOXLINT_VERDICT_UNKNOWN = 2 /**< only with BOXLINT_REASON_NEEDS_IP */
} boxlint_verdict;

/** Why a decision came out as it did. */
typedef enum boxlint_decision_reason {
  BOXLINT_REASON_RULE = 0,                /**< an entry decided (see list, index, entry) */
  BOXLINT_REASON_DEFAULT = 1,             /**< filtered, matched by no entry */
  BOXLINT_REASON_POLICY_DISABLED = 2,     /**< type disabled: everything denied */
  BOXLINT_REASON_POLICY_OPEN = 3,         /**< type open: everything allowed */
  BOXLINT_REASON_INVALID_DESTINATION = 4, /**< the host or address is not valid: denied */
  BOXLINT_REASON_NEEDS_IP = 5             /**< host-only query whose answer depends on the address */
} boxlint_decision_reason;

/** "disabled", "open", "filtered"; "" for other values. Static storage. */
BOXLINT_API const char *boxlint_policy_type_str(boxlint_policy_type type);
/** "allow_out", "deny_out"; NULL for BOXLINT_LIST_NONE and other values. Static storage. */
BOXLINT_API const char *boxlint_policy_list_str(boxlint_policy_list list);
/** "allow", "deny": the words of `--unmatched` and of the bindings' `unmatched`; NULL for
 *  other values. Static storage. */
BOXLINT_API const char *boxlint_policy_unmatched_str(boxlint_policy_unmatched unmatched);
/** "none", "e2b": the words of `--compat` and of the bindings' `compat`, one per mode (not
 *  for combined bits); NULL for other values. Static storage. */
BOXLINT_API const char *boxlint_policy_compat_str(boxlint_policy_compat compat);
/** The fields of a NetworkPolicy object, the names boxlint_policy_new reports them by: 0
 *  "type", 1 "allow_out", 2 "deny_out"; NULL for `i` past the last. Static storage. */
BOXLINT_API const char *boxlint_policy_field(size_t i);
/** "allow", "deny", "unknown"; "" for other values. Static storage. */
BOXLINT_API const char *boxlint_verdict_str(boxlint_verdict verdict);
/** "rule", "default", "policy-disabled", "policy-open", "invalid-destination", "needs-ip";
 *  "" for other values. Static storage. */
BOXLINT_API const char *boxlint_decision_reason_str(boxlint_decision_reason reason);

/*==============================================================================================
 * MARK: Entries
 *============================================================================================*/

/** Longest entry, in bytes, that can be valid (longer ones get detail `too-long`). */
#define BOXLINT_POLICY_ENTRY_MAX 255u

/** What an entry is. */
typedef enum boxlint_policy_entry_kind {
  BOXLINT_ENTRY_INVALID = 0,
  BOXLINT_ENTRY_ALL_TRAFFIC = 1, /**< `ALL_TRAFFIC` (any case) or `0.0.0.0/0`: every IPv4 and
                                      IPv6 address and every host; text `0.0.0.0/0` */
  BOXLINT_ENTRY_ADDRESS = 2,     /**< one IPv4 or IPv6 address, no prefix written */
  BOXLINT_ENTRY_CIDR = 3,        /**< an IPv4 or IPv6 network with `/len` (`::/0` included) */
  BOXLINT_ENTRY_DOMAIN = 4,      /**< one host name, matched exactly */
  BOXLINT_ENTRY_WILDCARD = 5,    /**< `*.suffix`: every strict subdomain, any depth */
  BOXLINT_ENTRY_ANY_HOST = 6     /**< `*`: every host name, never an IP destination */
} boxlint_policy_entry_kind;

/** A parsed entry, a plain value. */
typedef struct boxlint_policy_entry {
  boxlint_policy_entry_kind kind; /**< BOXLINT_ENTRY_INVALID when `detail` is set */
  int family;                     /**< 4 or 6 for ADDRESS and CIDR, 0 otherwise */
  unsigned prefix_len;            /**< 32/128 for an ADDRESS, the length for a CIDR, else 0 */
  int mapped;                     /**< written as IPv4-mapped IPv6, normalised to IPv4 */
  const char *detail;             /**< why it is invalid (docs/design.md §3), static; or NULL */
  size_t text_len;
  /** Normalised text, NUL-terminated: lower-case names without a trailing dot, dotted-quad
   *  IPv4, RFC 5952 IPv6, `network/len`, `0.0.0.0/0` for all traffic. Empty when invalid. */
  char text[BOXLINT_POLICY_ENTRY_MAX + 1];
} boxlint_policy_entry;

/**
 * Parse and normalise one allow_out/deny_out entry (docs/design.md §3, docs/policy.md).
 * Strict: no trimming, no Unicode folding, no octal/hex/shorthand IPv4, no host bits.
 *
 * @param out receives the entry; required. Filled in every case.
 * @param entry,len the entry's bytes; need not be NUL-terminated; NULL only when `len` is 0.
 * @return BOXLINT_OK for a valid entry, BOXLINT_ESYNTAX for an invalid one (`out->detail` says
 *         why), BOXLINT_EINVAL for a NULL `out` (or NULL `entry` with `len` > 0).
 * @note Allocates nothing; thread-safe.
 */
BOXLINT_API boxlint_status boxlint_policy_entry_parse(boxlint_policy_entry *out,
                                                      const char *entry, size_t len);

/*==============================================================================================
 * MARK: Policies
 *============================================================================================*/

/** Default and hard maximum number of entries per list. */
#define BOXLINT_POLICY_DEFAULT_MAX_ENTRIES 1024u
#define BOXLINT_POLICY_HARD_MAX_ENTRIES 65535u

/** A policy as written: spans into the caller's memory, none NUL-terminated. */
typedef struct boxlint_policy_spec {
  boxlint_span type;            /**< `type`; `ptr` NULL when absent (then "disabled") */
  const boxlint_span *allow_out; /**< `n_allow` entries; NULL when `n_allow` is 0 */
  size_t n_allow;
  const boxlint_span *deny_out;  /**< `n_deny` entries; NULL when `n_deny` is 0 */
  size_t n_deny;
} boxlint_policy_spec;

/** Options of boxlint_policy_new. Initialise with boxlint_policy_options_init(); new fields
 *  are only ever added at the end, and `size` tells versions apart. */
typedef struct boxlint_policy_options {
  size_t size;          /**< sizeof(boxlint_policy_options), set by _init */
  size_t max_entries;   /**< per list, default 1024; 0 means the default; at most 65535 */
  boxlint_policy_unmatched unmatched; /**< default BOXLINT_UNMATCHED_ALLOW */
  unsigned compat;      /**< boxlint_policy_compat bits, default BOXLINT_COMPAT_NONE */
  /** Prefix of diagnostic paths. `ptr` NULL (the default) means "network_policy", giving
   *  paths such as "network_policy.allow_out[2]"; a non-NULL empty span gives "allow_out[2]". */
  boxlint_span path_prefix;
  /** The severities of the policy warnings (a `boxlint_config`, boxlint/config.h): each
   *  warning is reported at the config's severity, and not at all when the config switches it
   *  off; errors are never changed. NULL (the default): every warning at its default
   *  severity, as a default config (boxlint_config_new) gives them. Read during
   *  boxlint_policy_new only; the policy keeps no reference to it. */
  const struct boxlint_config *config;
} boxlint_policy_options;

/** Fill `opts` with the defaults. NULL is a no-op. */
BOXLINT_API void boxlint_policy_options_init(boxlint_policy_options *opts);

/** sizeof(boxlint_policy_options) in this library (see boxlint_options_size). */
BOXLINT_API size_t boxlint_policy_options_size(void);

/** A compiled policy: immutable after boxlint_policy_new returns.
 *  @note May be shared by any number of threads without locking; only _free must not race. */
typedef struct boxlint_policy boxlint_policy;

/**
 * Validate and compile a NetworkPolicy.
 *
 * Appends every finding to `report` (nothing is cleared first): errors `invalid-policy-type`,
 * `invalid-policy-entry` (with `detail`), `lists-not-allowed`, `too-many-entries` and, in E2B
 * mode, `domains-require-deny-all`, `compat-deny-domain`, `compat-ipv6`; warnings
 * `allow-without-effect`, `deny-without-effect`, `filtered-empty-is-open`, `duplicate-entry`,
 * `shadowed-entry`, `broad-wildcard`, `any-host`, `mapped-address`, at the severities of
 * `opts->config` (their defaults without one; a warning the config switches off is not
 * reported). Each carries a `path`
 * ("network_policy.allow_out[2]"); messages quote the entry and name its list and index.
 * Fixes are list-relative: `text` replaces entries [`offset`, `offset` + `length`) of the list
 * the fix's description names. That of `allow-without-effect` and `domains-require-deny-all`
 * inserts "ALL_TRAFFIC" into `deny_out` (`length` 0). A non-ASCII entry (detail `non-ascii`) is
 * refused, never converted, but when it has a valid A-label (libidn2: IDNA2008 with UTS #46
 * mapping, non-transitional, as browsers look names up; "*.bücher.de" -> "*.xn--bcher-kva.de")
 * its message and hint name it and its fix replaces the entry with it (`length` 1); otherwise
 * the message says why there is none, and there is no fix.
 *
 * @param out receives the policy, which the caller frees with boxlint_policy_free; required.
 *            Set to NULL unless BOXLINT_OK is returned.
 * @param report receives the findings; NULL to discard them.
 * @param spec the policy; required. Its memory is not referenced after the call.
 * @param opts NULL for the defaults.
 * @param alloc allocator, stored in the policy; NULL for libc.
 * @return BOXLINT_OK (the policy may have warnings, also warnings that `opts->config` raises
 *         to errors), BOXLINT_ESYNTAX when it has at least one of the errors above (no policy
 *         is returned), BOXLINT_EINVAL for NULL `out`/`spec`
 *         or an invalid option, BOXLINT_ENOMEM (nothing leaks; the report keeps what was added).
 * @note Re-entrant; thread-safe when each thread uses its own report.
 */
BOXLINT_API boxlint_status boxlint_policy_new(boxlint_policy **out, boxlint_report *report,
                                              const boxlint_policy_spec *spec,
                                              const boxlint_policy_options *opts,
                                              const boxlint_alloc *alloc);

/** Free a policy and everything it owns. NULL is a no-op. Every span obtained from the policy
 *  (decisions, entry texts) becomes invalid. */
BOXLINT_API void boxlint_policy_free(boxlint_policy *policy);

/** The policy's type (BOXLINT_POLICY_DISABLED for NULL). Thread-safe. */
BOXLINT_API boxlint_policy_type boxlint_policy_get_type(const boxlint_policy *policy);

/** Number of entries of `list` (0 for NULL or BOXLINT_LIST_NONE). Thread-safe. */
BOXLINT_API size_t boxlint_policy_entry_count(const boxlint_policy *policy,
                                              boxlint_policy_list list);

/** Normalised text of entry `i` of `list`, NUL-terminated, owned by the policy (valid until
 *  boxlint_policy_free); {NULL, 0} when out of range. Thread-safe. */
BOXLINT_API boxlint_span boxlint_policy_entry_text(const boxlint_policy *policy,
                                                   boxlint_policy_list list, size_t i);

/*==============================================================================================
 * MARK: Decisions
 *============================================================================================*/

/** The answer for one destination. */
typedef struct boxlint_decision {
  boxlint_verdict verdict;
  boxlint_decision_reason reason;
  boxlint_policy_list list; /**< list of the deciding entry, BOXLINT_LIST_NONE without one */
  int32_t index;            /**< its index in that list, -1 without one */
  /** Its normalised text, NUL-terminated, owned by the policy; {NULL, 0} without one. */
  boxlint_span entry;
  /** 1 when a domain entry allowed the destination: connect by name and check the addresses
   *  it resolves to again, or a forged Host/SNI reaches any address. */
  int by_name;
} boxlint_decision;

/**
 * Decide one destination under a compiled policy (docs/design.md §3).
 *
 * Under `filtered`, an allow entry of any kind and specificity beats every deny entry; the
 * reported entry is the most specific one of the deciding list and kind (exact name, then the
 * longest `*.` suffix, then `*`; longest prefix, `0.0.0.0/0` last), the lowest index on a tie;
 * host-name entries are consulted before address entries. A host that is an IP literal is the
 * address. IPv4-mapped IPv6 destinations are unmapped. An invalid host or address (ports,
 * brackets, zone ids, octal or shorthand IPv4, a CIDR, a host literal that contradicts `ip`)
 * is denied with BOXLINT_REASON_INVALID_DESTINATION. A host-only query whose verdict would
 * depend on the address (deny CIDRs other than `0.0.0.0/0`, or allow CIDRs against a deny) is
 * BOXLINT_VERDICT_UNKNOWN with BOXLINT_REASON_NEEDS_IP: resolve, then ask again with `ip`.
 *
 * @param out receives the decision; required.
 * @param policy the compiled policy; required.
 * @param host,host_len host name (SNI, Host without port) or IP literal; `host` NULL if absent.
 * @param ip,ip_len destination address; `ip` NULL if absent. At least one must be given.
 * @return BOXLINT_OK, or BOXLINT_EINVAL (NULL `out`/`policy`, neither host nor ip).
 * @note Allocates nothing. O(length of the host) + O(log n). Thread-safe: any number of
 *       threads may decide on one policy at once.
 */
BOXLINT_API boxlint_status boxlint_policy_decide(boxlint_decision *out,
                                                 const boxlint_policy *policy, const char *host,
                                                 size_t host_len, const char *ip, size_t ip_len);

/*==============================================================================================
 * MARK: Enforcement: firewall and resolver rules (docs/design.md §9)
 *============================================================================================*/

/** What boxlint_policy_emit writes. */
typedef enum boxlint_emit_format {
  BOXLINT_EMIT_NFTABLES = 0, /**< an nftables script (`nft -f`) */
  BOXLINT_EMIT_DNSMASQ = 1,  /**< a dnsmasq configuration (nftset=, server=, address= lines) */
  BOXLINT_EMIT_NGINX = 2     /**< an nginx configuration (`nginx -c`, Debian's nginx and
                                  libnginx-mod-stream): the proxy layer that decides TLS by its
                                  SNI (stream, ssl_preread, never decrypting) and HTTP by its
                                  Host, and connects by that name through `resolvers`; with the
                                  nftables script written with `proxy_user` */
} boxlint_emit_format;

/** "nftables", "dnsmasq", "nginx": the words of `boxlint policy --emit` and of the bindings' `emit`;
 *  NULL for other values. Static storage. */
BOXLINT_API const char *boxlint_emit_format_str(boxlint_emit_format format);

/** Options of boxlint_policy_emit. Initialise with boxlint_emit_options_init(); new fields are
 *  only ever added at the end, and `size` tells versions apart. */
typedef struct boxlint_emit_options {
  size_t size;              /**< sizeof(boxlint_emit_options), set by _init */
  const char *table;        /**< nftables table (family inet) holding the rules and the sets
                                 dnsmasq fills; default "boxlint"; [A-Za-z0-9_-], 1-64 bytes */
  const char *iifname;      /**< NULL: the output hook of the sandbox's own namespace; else the
                                 forward hook of a host or router, for traffic entering from
                                 this interface (the sandbox's veth or bridge port) */
  const char *const *resolvers; /**< `nresolvers` upstream resolver addresses (IPv4 or IPv6
                                     text): kept reachable on port 53 by the script, and the
                                     `server=` lines of the dnsmasq configuration, and the
                                     resolver the nginx proxy connects by name through */
  size_t nresolvers;
  const char *proxy_user;   /**< the proxy layer (docs/enforcement.md): the user the nginx
                                 workers run as (default "www-data" for BOXLINT_EMIT_NGINX). Set,
                                 the nftables script sends the sandbox's TCP 80 and 443 to the
                                 proxy's ports (redirect), accepts the proxy's own TCP 80 and 443
                                 (output hook: by this user, `meta skuid`) and drops UDP 443
                                 (QUIC), so that names decide those ports; NULL: no proxy layer.
                                 [A-Za-z0-9_-], 1-32 bytes */
  unsigned proxy_http_port; /**< where the proxy takes HTTP (default 15080) */
  unsigned proxy_tls_port;  /**< where the proxy takes TLS (default 15443) */
} boxlint_emit_options;

/** Fill `opts` with the defaults. NULL is a no-op. */
BOXLINT_API void boxlint_emit_options_init(boxlint_emit_options *opts);

/** sizeof(boxlint_emit_options) in this library (see boxlint_options_size). */
BOXLINT_API size_t boxlint_emit_options_size(void);

/**
 * Do the enforcement rules of `policy` need the resolver's address (boxlint_emit_options
 * resolvers)? True for a `filtered` policy whose lists name a host (a name, a wildcard or `*`),
 * whose allow_out has no ALL_TRAFFIC, and that drops addresses it does not name: deny_out has
 * ALL_TRAFFIC, `0.0.0.0/0` or `::/0`, or unmatched destinations are denied. Such rules would
 * drop DNS to every resolver they are not told of, while its answers are what lets the allowed
 * names through. boxlint_policy_emit refuses such a policy without resolvers. NULL: 0.
 * @note Re-entrant; the policy is only read.
 */
BOXLINT_API int boxlint_policy_needs_resolver(const boxlint_policy *policy);

/**
 * Write the rules that make the kernel and the resolver enforce a compiled policy exactly as
 * boxlint_policy_decide decides it (docs/design.md §9): the nftables script, or the dnsmasq
 * configuration whose `nftset=` lines fill the script's sets with the addresses of allowed and
 * denied names. Both are written from the same analysis: when the two together cannot say what
 * docs/design.md §3 says for a host name (dnsmasq matches a name with all its subdomains; a name and its
 * subdomains that the policy treats differently are expressible only when one side can be
 * refused by the resolver), nothing is written and each entry that cannot be expressed gets an
 * error `unenforceable-entry` in `report`, naming the reason.
 *
 * DNS is never cut by surprise: the script accepts DNS (port 53) only to `opts->resolvers`, so
 * when boxlint_policy_needs_resolver(policy) is true and no resolver is given, nothing is
 * written and `report` gets one `unenforceable-entry` error (path: the deny_out entry that drops
 * every address, or "network_policy.type" for BOXLINT_UNMATCHED_DENY) that says so, with the
 * fix as its hint. A policy that names no host name (only addresses, networks, ALL_TRAFFIC,
 * `disabled`, `open`) needs no resolver: the sandbox resolves nothing through the rules, and
 * its rules are written without one.
 *
 * @param policy the compiled policy; required.
 * BOXLINT_EMIT_NGINX writes the proxy layer: each TLS connection decided by its SNI and each
 * HTTP request by its Host as boxlint_policy_decide decides that name, then connected to by the
 * name (never to the address the client chose), through `opts->resolvers`. A name without SNI,
 * with bytes other than letters, digits, '.' and '-', or not HTTP, is refused. The proxy sees
 * names, not the addresses they resolve to: a policy under which a name's verdict depends on
 * its address (allow_out has addresses or networks; deny_out has some but not every address
 * while unmatched destinations are allowed) is refused, `unenforceable-entry` at that entry, as
 * is a policy that allows names when no resolver is given.
 *
 * @param format BOXLINT_EMIT_NFTABLES, BOXLINT_EMIT_DNSMASQ or BOXLINT_EMIT_NGINX.
 * @param opts NULL for the defaults.
 * @param report receives `unenforceable-entry` errors; required.
 * @param out receives the text (NUL-terminated, `*out_len` bytes; free it with
 *            boxlint_buffer_free and the same `alloc`), or NULL when the policy was refused.
 * @param alloc allocator of `*out`; NULL for libc.
 * @return BOXLINT_OK (also when refused: see the report), BOXLINT_EINVAL (a NULL argument, an
 *         unknown format, a bad table, interface or proxy user name, a proxy port 0 or above
 *         65535 or both the same, a resolver that is not an address),
 *         BOXLINT_ENOMEM.
 * @note Re-entrant; the policy is only read.
 */
BOXLINT_API boxlint_status boxlint_policy_emit(const boxlint_policy *policy,
                                               boxlint_emit_format format,
                                               const boxlint_emit_options *opts,
                                               boxlint_report *report, char **out,
                                               size_t *out_len, const boxlint_alloc *alloc);

#ifdef __cplusplus
}
#endif
#endif
