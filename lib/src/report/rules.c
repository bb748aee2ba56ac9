/* The rule table: ids (an interface: never renamed), default severities and explanations. */
#include <string.h>
#include "report/emit.h"

/* Built-in warnings whose severity a config may set (ids must be in the rule table). */
const char *const BL_WARNINGS[] = {
  "unknown-field", "unused-suppression", "regex-limit",
  /* DESIGN §2.2 */
  "final-user-not-root", "stopsignal-overrides-systemd",
  /* DESIGN §2.3 */
  "apt-get-missing-yes", "pip-no-cache-dir", "apt-lists-not-cleaned", "curl-pipe-shell",
  "secret-in-command", "run-mount-context", "run-mount-from-image", "sudo-usage",
  /* boxlint's own, for a Debian/Ubuntu base with systemd and Jupyter */
  "systemctl-in-build", "apt-get-upgrade", "env-overrides-runtime", "healthcheck-in-template",
  "run-insecure", "workdir-relative",
  /* NetworkPolicy warnings (policy/ emits them; a config may set their severity) */
  "allow-without-effect", "deny-without-effect", "filtered-empty-is-open", "duplicate-entry",
  "shadowed-entry", "broad-wildcard", "any-host", "mapped-address",
  /* Agent bindings (lint/binding.c) and Python sources (DESIGN §6) */
  "unusual-lifespan", "not-static",
};
const size_t BL_NWARNINGS = sizeof BL_WARNINGS / sizeof BL_WARNINGS[0];

const char BL_R_DENIED[] = "denied-instruction";
const char BL_R_UNKNOWN[] = "unknown-instruction";
const char BL_R_EMPTY[] = "empty-command";
const char BL_R_TOO_MANY[] = "too-many-commands";
const char BL_R_TOO_LONG[] = "command-too-long";
const char BL_R_NUL[] = "nul-byte";
const char BL_R_BARE_CR[] = "bare-cr";
const char BL_R_CONTROL[] = "control-character";
const char BL_R_UTF8[] = "invalid-utf8";
const char BL_R_NONASCII[] = "non-ascii-syntax";
const char BL_R_MULTIPLE[] = "multiple-instructions";
const char BL_R_DANGLING[] = "dangling-continuation";
const char BL_R_UNTERMINATED[] = "unterminated-heredoc";
const char BL_R_AMBIGUOUS[] = "ambiguous-heredoc";
const char BL_R_ONBUILD[] = "invalid-onbuild";
const char BL_R_MISSING_ARGS[] = "missing-arguments";
const char BL_R_INVALID_ARGS[] = "invalid-arguments";
const char BL_R_FLAG[] = "invalid-flag";
const char BL_R_BASE[] = "base-not-appendable";

#define E BOXLINT_SEVERITY_ERROR
#define W BOXLINT_SEVERITY_WARNING

static const boxlint_rule_info RULES[] = {
  {BL_R_DENIED, E, "FROM, COPY, ADD, CMD and ENTRYPOINT are not allowed in a template",
   "The platform appends the commands to its own base image, which runs systemd as PID 1 and "
   "Jupyter with the execution shim. FROM would replace that base; COPY and ADD need a build "
   "context, and templates are built without one; CMD and ENTRYPOINT would replace systemd as "
   "PID 1, so Jupyter and the shim never start and every sandbox of the template is dead. The "
   "same holds for these instructions as ONBUILD triggers, which run in later builds.",
   "COPY requirements.txt /app/", "RUN pip install --no-cache-dir -r https://example.com/requirements.txt"},
  {BL_R_UNKNOWN, E, "the command does not start with a Dockerfile instruction",
   "Every command must start with one of the 18 Dockerfile keywords. A shell command given "
   "without RUN, or a misspelt keyword, fails the build 30 seconds in; boxlint rejects it at "
   "once and suggests the keyword (edit distance 2 or less) or RUN.",
   "pip install pydantic-ai", "RUN pip install --no-cache-dir pydantic-ai"},
  {BL_R_EMPTY, E, "the command is empty, blank or only a comment",
   "A command must hold exactly one instruction. An empty or comment-only command adds nothing "
   "and usually means a list was built wrongly.", "", "RUN true"},
  {BL_R_TOO_MANY, E, "more than 64 commands",
   "The platform accepts at most 64 commands per template (configurable by the embedding "
   "program). Join related steps into one RUN with &&.", "(65 commands)",
   "RUN apt-get update && apt-get install -y curl git"},
  {BL_R_TOO_LONG, E, "a command longer than 4096 bytes",
   "The platform accepts at most 4 KB per command (configurable). Fetch long scripts with "
   "RUN curl -fsSL, or split the command.", "RUN echo <5000 bytes>",
   "RUN curl -fsSL https://example.com/setup.sh | sh"},
  {BL_R_NUL, E, "a NUL byte in a command",
   "NUL bytes are never valid in a Dockerfile and are a classic way to make a validator and "
   "the builder read different text.", "RUN echo a\\0b", "RUN echo ab"},
  {BL_R_BARE_CR, E, "a carriage return not followed by a line feed",
   "BuildKit splits lines only at LF, strips trailing CRs, and treats a CR between words as a "
   "separator: a bare CR makes the text look different to a reader than to the builder.",
   "RUN echo a\\rFROM x", "RUN echo a"},
  {BL_R_CONTROL, E, "a control character other than tab and line feed",
   "Vertical tab, form feed and other control bytes are white space to BuildKit in some places "
   "and text in others: they can end a line continuation early or split a keyword.",
   "RUN echo \\v", "RUN echo ok"},
  {BL_R_UTF8, E, "bytes that are not valid UTF-8",
   "Invalid UTF-8 is decoded differently by different layers (BuildKit reads some bytes as "
   "Latin-1 white space). Templates must be valid UTF-8.", "RUN echo \\xff", "RUN echo ÿ"},
  {BL_R_NONASCII, E, "a non-ASCII character in the keyword, leading white space or flags",
   "BuildKit folds U+0130 and the Kelvin sign to ASCII letters, trims Unicode white space such "
   "as NBSP before a keyword, and splits flags at the bytes 0x85 and 0xA0: each can smuggle a "
   "denied instruction or a hidden flag past a validator. Keywords, leading white space and "
   "flags must be ASCII.", "ENTRYPO\u0130NT [\"/x\"]", "RUN /x"},
  {BL_R_MULTIPLE, E, "more than one instruction, or a comment, in one command",
   "The platform joins commands with newlines, so an embedded newline starts a new instruction "
   "that no one reviewed (RUN true\\nFROM evil). Each command must be exactly one instruction; "
   "use a line continuation to spread it over lines.", "RUN apt-get update\nRUN apt-get install -y curl",
   "RUN apt-get update && \\\n    apt-get install -y curl"},
  {BL_R_DANGLING, E, "the command ends inside a line continuation",
   "A trailing escape character joins the next command onto this one with no separator, so "
   "\"FR\\\" followed by \"OM x\" becomes FROM x.", "RUN apt-get install -y curl \\",
   "RUN apt-get install -y curl"},
  {BL_R_UNTERMINATED, E, "a heredoc is not closed inside the command",
   "BuildKit would read the following commands as the heredoc's body, or reject the whole "
   "Dockerfile. Close every heredoc with its terminator line.",
   "RUN <<EOF\necho hi", "RUN <<EOF\necho hi\nEOF"},
  {BL_R_AMBIGUOUS, E, "a heredoc whose meaning depends on a BuildKit quirk",
   "BuildKit decides whether `<<` opens a heredoc with its own shell lexer. Where that decision "
   "depends on behaviour boxlint does not model exactly (Unicode letters in `${...}`, a byte "
   "order mark, a heredoc name BuildKit cannot read), boxlint rejects rather than guess.",
   "RUN cat <<\"${\u00e9}\"", "RUN cat <<'EOF'\nhello\nEOF"},
  {BL_R_ONBUILD, E, "an ONBUILD that BuildKit rejects",
   "ONBUILD ONBUILD, ONBUILD FROM, ONBUILD MAINTAINER and an empty ONBUILD fail the build.",
   "ONBUILD ONBUILD RUN x", "ONBUILD RUN x"},
  {BL_R_MISSING_ARGS, E, "an instruction without the arguments it needs",
   "BuildKit rejects ENV, LABEL, ARG, EXPOSE, VOLUME, USER, WORKDIR, STOPSIGNAL, HEALTHCHECK "
   "and SHELL without arguments.", "WORKDIR", "WORKDIR /app"},
  {BL_R_INVALID_ARGS, E, "arguments that BuildKit rejects",
   "ENV and LABEL need name=value pairs, SHELL needs a JSON array, JSON arrays must hold only "
   "strings, HEALTHCHECK needs CMD or NONE, VOLUME paths cannot be empty.",
   "ENV DEBUG", "ENV DEBUG=1"},
  {BL_R_FLAG, E, "a flag the instruction does not take, or a bad flag value",
   "Only RUN (--mount, --network, --security, --device) and HEALTHCHECK take flags here; a "
   "missing value, a bad --network or --security value, a bad --mount or a duplicate flag "
   "fails the build.", "RUN --network=bridge curl x", "RUN --network=none make"},
  {BL_R_BASE, E, "the base Dockerfile cannot take appended commands",
   "The base must end with a newline, its last instruction must be complete (not in a "
   "continuation or heredoc), and it must hold an instruction before the appended text; "
   "otherwise the first command is joined onto the base or read as a parser directive.",
   "FROM ubuntu:24.04 \\", "FROM ubuntu:24.04\n"},
  {"invalid-name", E, "the template name is not a valid slug",
   "The name is also the sandbox alias: 1 to 63 characters of a-z, 0-9, '-' and '_', starting "
   "and ending with a letter or digit.", "{\"name\": \"My Template!\"}", "{\"name\": \"my-template\"}"},
  {"invalid-resources", E, "cpu_count or memory_mb is not an integer within the platform's bounds",
   "The platform runs sandboxes with 1 to 8 vCPUs and 512 to 16384 MiB of memory by default "
   "(the embedding program may set other bounds). A fraction, a string or a value out of range "
   "fails the request.", "{\"cpu_count\": 32}", "{\"cpu_count\": 2}"},
  {"missing-field", E, "a required template field is absent",
   "A template needs name, commands, cpu_count and memory_mb; an agent binding needs "
   "template_id.", "{\"name\": \"t\"}",
   "{\"name\": \"t\", \"commands\": [], \"cpu_count\": 2, \"memory_mb\": 4096}"},
  {"unknown-field", W, "a template field that the platform does not know",
   "Unknown fields are ignored by the platform, which usually means a typo (cpus for "
   "cpu_count): the value you meant to set is not set.", "{\"cpus\": 2}", "{\"cpu_count\": 2}"},
  {"unused-suppression", W, "a boxlint ignore comment that suppresses nothing",
   "A `# boxlint ignore=` comment should name warnings that fire on the next instruction; one "
   "that suppresses nothing is stale, or names an error (errors cannot be suppressed).",
   "# boxlint ignore=sudo-usage -- old\nRUN true", "RUN true"},
  {"regex-limit", W, "a rule's pattern hit the regular-expression match limit",
   "Patterns run with match and depth limits so that no input makes a check slow. A rule that "
   "hits a limit did not check the instruction; boxlint says so rather than pass it silently.",
   "(a user rule with a pattern such as (a+)+$)", "(a pattern without nested quantifiers)"},
  /* Warnings that matter in a sandbox image (warnings.c). */
  {"final-user-not-root", W, "the template ends with a USER that is not root",
   "The platform's base starts systemd as PID 1 from the image's final USER. If the template "
   "leaves a non-root USER in place, systemd runs unprivileged: it cannot start Jupyter, the "
   "execution shim or any unit, and every sandbox of the template fails to come up.",
   "RUN useradd -m app\nUSER app", "RUN useradd -m app\nUSER app\nRUN ...\nUSER root"},
  {"stopsignal-overrides-systemd", W, "STOPSIGNAL changes the signal systemd expects",
   "systemd shuts down cleanly on SIGRTMIN+3. Any other STOPSIGNAL (SIGTERM, SIGKILL) makes "
   "sandbox shutdown kill PID 1 abruptly: units do not stop, files are not flushed.",
   "STOPSIGNAL SIGTERM", "(no STOPSIGNAL: the base's SIGRTMIN+3 stays)"},
  {"apt-get-missing-yes", W, "apt-get install without -y",
   "Image builds have no terminal: apt-get install without -y (or --yes, -qy, -qq) stops at "
   "its \"Do you want to continue?\" prompt, reads end-of-file, and aborts the build.",
   "RUN apt-get update && apt-get install curl", "RUN apt-get update && apt-get install -y curl"},
  {"pip-no-cache-dir", W, "pip install keeps its cache in the image",
   "pip stores every downloaded wheel under ~/.cache/pip. In a template that cache is part of "
   "the image that every sandbox starts from: hundreds of MB of dead weight for ML packages.",
   "RUN pip install torch", "RUN pip install --no-cache-dir torch"},
  {"apt-lists-not-cleaned", W, "apt-get update without removing /var/lib/apt/lists",
   "The package lists that apt-get update downloads stay in the layer unless the same RUN "
   "removes them: tens of MB in every sandbox, and stale lists for anyone who installs later.",
   "RUN apt-get update && apt-get install -y curl",
   "RUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*"},
  {"curl-pipe-shell", W, "a downloaded script is piped into a shell",
   "curl | sh runs whatever the server returns, unverified, as root in the image that all "
   "sandboxes share; a truncated download runs half a script.",
   "RUN curl -fsSL https://example.com/install.sh | sh",
   "RUN curl -fsSLo /tmp/i.sh https://example.com/install.sh && echo \"<sha256>  /tmp/i.sh\" | sha256sum -c && sh /tmp/i.sh"},
  {"secret-in-command", W, "a credential in a command",
   "Everything in a template's commands is stored in the image and its history: a token in a "
   "URL (--index-url=https://user:pass@host), a known token format (AWS, GitHub, GitLab, "
   "Slack, private keys), a password=... assignment, or an ENV/ARG with a secret-looking name "
   "and a literal value (or a literal default, ${TOKEN:-value}: templates are built without "
   "build arguments) reaches every sandbox and anyone who can pull the image. Give the sandbox "
   "the credential at run time and let the template say where it is. Not secrets: an empty "
   "value, a variable ($TOKEN, ${TOKEN}, \"$TOKEN\"), a path (/run/secrets/token, ./key, "
   "../key, ~/.ssh/id_ed25519; not a relative name such as keys/api, and not base64, which "
   "has '/' too), and the value of a name ending in _FILE, _FILES, _FILENAME, _PATH, _DIR, "
   "_DIRECTORY, _URL or _URI, unless it holds a credential itself (https://user:pass@host, "
   "?token=..., a known token). Placeholders (changeme, <your-token>) are reported: changeme "
   "is a password that takes effect, and a placeholder is where a real secret is about to go. "
   "The message masks the value.",
   "ENV HF_TOKEN=hf_kVbQzTmXwLpRsNdYcGhJfAeUoIi", "ENV HF_TOKEN_PATH=/run/secrets/hf_token"},
  {"run-mount-context", W, "RUN --mount reads the build context",
   "A RUN --mount of type bind without from= mounts the build context, the same thing COPY "
   "reads. Templates are built without a context, so the mount is empty and the step fails or "
   "silently does nothing.", "RUN --mount=target=/src make -C /src",
   "RUN curl -fsSL https://example.com/src.tgz | tar -xz -C /src && make -C /src"},
  {"run-mount-from-image", W, "RUN --mount pulls another image",
   "RUN --mount=from=<image> pulls an arbitrary image into the build, which is what FROM and "
   "COPY --from do and what templates deny.", "RUN --mount=from=alpine,target=/a cp /a/bin/x /usr/bin/",
   "RUN apt-get update && apt-get install -y x && rm -rf /var/lib/apt/lists/*"},
  {"sudo-usage", W, "sudo in a template command",
   "Template commands already run as root; sudo is redundant, may not be installed in the base, "
   "and hides that a later USER switched away from root.", "RUN sudo apt-get install -y curl",
   "RUN apt-get install -y curl"},
  {"systemctl-in-build", W, "systemctl start/restart/status during the build",
   "systemd is PID 1 in the running sandbox, but it is not running while the image is built: "
   "systemctl start, restart, reload, stop, status and daemon-reload fail (\"System has not "
   "been booted with systemd\") or do nothing. Enabling a unit is what persists.",
   "RUN systemctl start redis-server", "RUN systemctl enable redis-server"},
  {"apt-get-upgrade", W, "apt-get upgrade of the base image",
   "upgrade, dist-upgrade and full-upgrade replace the base image's packages, systemd and the "
   "Python that Jupyter runs on included, with whatever the mirror has today: the template "
   "stops being reproducible and can break the platform's shim.",
   "RUN apt-get update && apt-get upgrade -y", "RUN apt-get update && apt-get install -y curl=8.*"},
  {"env-overrides-runtime", W, "ENV replaces PATH, LD_PRELOAD, LD_LIBRARY_PATH or PYTHONHOME",
   "The base's Jupyter, execution shim and systemd units find their programs through PATH and "
   "their libraries through the dynamic loader. Replacing PATH (instead of extending it), "
   "setting LD_PRELOAD or PYTHONHOME, or replacing LD_LIBRARY_PATH changes every process in "
   "the sandbox, not just yours.", "ENV PATH=/opt/conda/bin", "ENV PATH=/opt/conda/bin:$PATH"},
  {"healthcheck-in-template", W, "HEALTHCHECK in a template",
   "A HEALTHCHECK runs a command in every sandbox on a timer and replaces the base image's own; "
   "the platform supervises sandboxes itself, so it only costs CPU in each sandbox.",
   "HEALTHCHECK CMD curl -f http://localhost:8000/", "(supervise services with systemd units)"},
  {"run-insecure", W, "RUN --security=insecure or --network=host",
   "Both need a builder entitlement (security.insecure, network.host) that the platform's "
   "builder does not grant, so the build fails; and they would give a template's build step "
   "the host's privileges or network.", "RUN --security=insecure mount -t tmpfs none /mnt",
   "RUN mkdir -p /mnt/data"},
  {"workdir-relative", W, "WORKDIR with a relative path",
   "A relative WORKDIR is resolved against the base image's working directory, which the "
   "platform owns and may change: the template's later commands then run somewhere else.",
   "WORKDIR app", "WORKDIR /home/user/app"},
  /* Agent bindings (lint/binding.c) and Python sources (DESIGN §6). */
  {"invalid-template-id", E, "an agent binding's template_id is not a valid template id",
   "template_id names the template that the agent's sandboxes start from: a builtin id such "
   "as python-4g, or the name of one of your templates, which follows the name rule (1 to 63 "
   "characters of a-z, 0-9, '-' and '_', starting and ending with a letter or digit). A "
   "value that is empty, not a string, or outside that rule can name no template: the agent "
   "gets no working code interpreter.",
   "{\"template_id\": \"My Template\"}", "{\"template_id\": \"my-template\"}"},
  {"invalid-version", E, "an agent binding's version is not an integer of 1 or more",
   "version is the agent version the code interpreter is attached to; agent versions are "
   "numbered from 1 (the default). A fraction, a string or a number below 1 names no "
   "agent version.", "{\"template_id\": \"python-4g\", \"version\": 0}",
   "{\"template_id\": \"python-4g\", \"version\": 1}"},
  {"invalid-lifespan", E, "an agent binding's lifespan_seconds is not a positive integer",
   "lifespan_seconds is the sandbox's idle-kill timeout in whole seconds (default 1200). Zero, "
   "a negative number, a fraction or a string is not such a timeout.",
   "{\"template_id\": \"python-4g\", \"lifespan_seconds\": 0}",
   "{\"template_id\": \"python-4g\", \"lifespan_seconds\": 1200}"},
  {"unusual-lifespan", W, "an idle timeout under a minute or over a day",
   "lifespan_seconds is how long an idle sandbox lives. Under 60 seconds the sandbox is killed "
   "between two cells, or while the model thinks before the next one, and its state (variables, "
   "files, installed packages) is lost; over 86400 seconds an idle sandbox, with the "
   "memory and CPU it holds, is kept for more than a day. The default is 1200.",
   "{\"template_id\": \"python-4g\", \"lifespan_seconds\": 10}",
   "{\"template_id\": \"python-4g\", \"lifespan_seconds\": 1200}"},
  {"not-static", BOXLINT_SEVERITY_INFO, "the value is known only at run time",
   "boxlint reads Python source without running it. An SDK argument that is computed (a call, "
   "an f-string, a name that anything else in the file could change or replace) or an SDK "
   "reached other than by a direct call (an alias of client.code_interpreter.templates, "
   "getattr, functools.partial, exec) cannot be checked, and boxlint says so rather than "
   "guess. Write the value as a literal, or as a module-level name bound once to a literal "
   "and only passed to SDK calls, to have it checked. It cannot be silenced by a comment; a "
   "project's config may switch it off.",
   "client.code_interpreter.templates.create(name=f\"py-{env}\", commands=build(), "
   "cpu_count=2, memory_mb=4096)",
   "client.code_interpreter.templates.create(name=\"py-extra\", commands=[\"RUN pip install "
   "--no-cache-dir pandas\"], cpu_count=2, memory_mb=4096)"},
  {"python-syntax", E, "the Python file is not valid Python",
   "boxlint finds the SDK calls in a .py file with a reader that follows Python's grammar. A "
   "file that Python itself would reject (an unclosed bracket or string, bad indentation) "
   "cannot be read reliably, so boxlint reports the first problem and checks nothing else in "
   "the file.",
   "client.agents.add_code_interpreter(\"prm_abc\", template_id=\"python-4g\"",
   "client.agents.add_code_interpreter(\"prm_abc\", template_id=\"python-4g\")"},
  {"python-encoding", E, "the Python file's encoding cannot be read exactly as Python reads it",
   "A .py file may declare its encoding in a comment on its first two lines (PEP 263). boxlint "
   "reads UTF-8 and the single-byte encodings (latin-1, cp1252, ...) that it decodes exactly as "
   "CPython does; any other declared encoding (utf-7, unicode_escape, shift_jis, ...) could "
   "show boxlint a comment where Python runs code, so the file is refused, as is a byte the "
   "encoding does not define. Save the file as UTF-8.",
   "# -*- coding: utf-7 -*-\n"
   "# +AAo-client.code_interpreter.templates.update(\"x\", commands=[\"FROM evil\"])",
   "# -*- coding: utf-8 -*-\n"
   "client.code_interpreter.templates.update(\"x\", commands=[\"RUN true\"])"},
  {"invalid-argument-type", E, "an SDK argument has a type the platform rejects",
   "The SDK sends its arguments to the platform as they are: commands must be a list of "
   "strings, name and each policy entry strings, network_policy a dict or a NetworkPolicy. A "
   "literal of another type (a number among the commands, a string where a list is expected) "
   "is rejected when the call runs; boxlint reports it where the literal is written.",
   "client.code_interpreter.templates.create(name=\"py\", commands=\"RUN true\", cpu_count=2, "
   "memory_mb=4096)",
   "client.code_interpreter.templates.create(name=\"py\", commands=[\"RUN true\"], "
   "cpu_count=2, memory_mb=4096)"},
  {"unknown-argument", E, "an SDK call with arguments its signature does not take",
   "The SDK's methods have fixed signatures: templates.create(name, commands, cpu_count, "
   "memory_mb), templates.update(template_id, commands), agents.add_code_interpreter(agent_id, "
   "template_id, version=1, lifespan_seconds=1200, network_policy=None) and "
   "NetworkPolicy(type, allow_out, deny_out). A keyword they do not name, more positional "
   "arguments than they take, or the same argument twice makes Python raise TypeError when "
   "the call runs; boxlint reports it where it is written, naming the call that takes the "
   "argument when another one does.",
   "client.code_interpreter.templates.create(name=\"py\", commands=[\"RUN true\"], "
   "cpu_count=2, memory_mb=4096, network_policy={\"type\": \"open\"})",
   "client.code_interpreter.templates.create(name=\"py\", commands=[\"RUN true\"], "
   "cpu_count=2, memory_mb=4096)"},
  /* NetworkPolicy rules (policy/ emits them): keep them last, from R_TYPE on. */
#define R_TYPE "invalid-policy-type"
#define R_ENTRY "invalid-policy-entry"
#define R_LISTS "lists-not-allowed"
#define R_TOO_MANY "too-many-entries"
#define R_ALLOW_NOEFF "allow-without-effect"
#define R_DENY_NOEFF "deny-without-effect"
#define R_EMPTY_OPEN "filtered-empty-is-open"
#define R_DUP "duplicate-entry"
#define R_SHADOW "shadowed-entry"
#define R_BROAD "broad-wildcard"
#define R_ANY "any-host"
#define R_MAPPED "mapped-address"
#define R_DOMAINS_ALL "domains-require-deny-all"
#define R_COMPAT_DENY_DOMAIN "compat-deny-domain"
#define R_COMPAT_IPV6 "compat-ipv6"
#define R_UNENFORCEABLE "unenforceable-entry"

    {R_TYPE, E, "network_policy.type is not disabled, open or filtered",
     "A NetworkPolicy's type is exactly \"disabled\" (the default: all egress blocked), \"open\" "
     "(all allowed) or \"filtered\" (allow_out and deny_out decide), in lower case.",
     "{\"type\": \"Filtered\"}", "{\"type\": \"filtered\"}"},
    {R_ENTRY, E, "an allow_out/deny_out entry is not a valid address, network or host name",
     "Entries are parsed strictly; the `detail` says why one is rejected. Lenient readings are the "
     "bug: glibc reads 010.0.0.1 as 8.0.0.1 and 127.1 as 127.0.0.1, 10.0.0.1/8 silently widens a "
     "host to a /8, and ports, URLs, brackets, zone ids and whitespace make entries that never "
     "match.",
     "[\"010.0.0.1\", \"pypi.org:443\", \"10.0.0.1/8\"]",
     "[\"10.0.0.1\", \"pypi.org\", \"10.0.0.0/8\"]"},
    {R_LISTS, E, "allow_out or deny_out given with type disabled or open",
     "Only a filtered policy applies lists; under disabled or open they would be ignored. To allow "
     "only some destinations, use filtered with ALL_TRAFFIC in deny_out.",
     "{\"type\": \"disabled\", \"allow_out\": [\"pypi.org\"]}",
     "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], \"deny_out\": [\"ALL_TRAFFIC\"]}"},
    {R_TOO_MANY, E, "a list has more entries than allowed (default 1024)",
     "Each list holds at most 1024 entries unless the embedding program sets another limit.",
     "2000 single addresses", "a few CIDRs and *. wildcards"},
    {R_ALLOW_NOEFF, W, "an allow entry changes nothing: no deny entry overlaps it",
     "Under filtered, a destination matched by neither list is allowed (E2B's enforcement), so an "
     "allow entry only matters where it overrides a deny entry. An allow-list is written as the "
     "allowed entries plus ALL_TRAFFIC in deny_out.",
     "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], \"deny_out\": []}",
     "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], \"deny_out\": [\"ALL_TRAFFIC\"]}"},
    {R_DENY_NOEFF, W, "a deny entry changes nothing when unmatched destinations are denied",
     "With unmatched destinations denied, a deny entry that no allow entry overlaps denies what "
     "would be denied anyway.",
     "--unmatched deny, deny_out [\"192.168.0.0/16\"], allow_out [\"10.0.0.0/8\"]",
     "allow_out [\"10.0.0.0/8\"]"},
    {R_EMPTY_OPEN, W, "a filtered policy with empty lists allows everything",
     "Both lists empty under filtered means no restriction at all, the same as open.",
     "{\"type\": \"filtered\"}",
     "{\"type\": \"filtered\", \"allow_out\": [\"pypi.org\"], \"deny_out\": [\"ALL_TRAFFIC\"]}"},
    {R_DUP, W, "an entry repeats an earlier entry of the same list",
     "Entries are compared after normalisation: case, one trailing dot, IPv6 spelling, mapped "
     "IPv4, and an address against the same /32 or /128.",
     "[\"pypi.org\", \"PyPI.org.\"]", "[\"pypi.org\"]"},
    {R_SHADOW, W, "a deny entry is fully covered by an allow entry and can never decide",
     "Allow beats deny at any specificity, so a deny entry inside an allow entry is never used; "
     "exceptions cannot be carved out of an allow entry.",
     "allow_out [\"10.0.0.0/8\"], deny_out [\"10.1.1.1\"]",
     "allow_out [\"10.0.0.0/16\"], deny_out [\"ALL_TRAFFIC\"]"},
    {R_BROAD, W, "a wildcard covers a whole top-level domain",
     "*.com matches every .com name; a wildcard normally names one organisation's domain.",
     "[\"*.com\"]", "[\"*.example.com\"]"},
    {R_ANY, W, "'*' matches every host name",
     "'*' matches every name seen in SNI or Host, but no destination reached by IP address.",
     "allow_out [\"*\"]", "allow_out [\"pypi.org\", \"*.pythonhosted.org\"]"},
    {R_MAPPED, W, "an IPv4-mapped IPv6 entry is treated as its IPv4 address",
     "::ffff:a.b.c.d is the IPv4 address a.b.c.d; boxlint normalises it so that it cannot slip "
     "past IPv4 entries. Write the IPv4 form.",
     "[\"::ffff:8.8.8.8\"]", "[\"8.8.8.8\"]"},
    {R_DOMAINS_ALL, E, "E2B: host names in allow_out need ALL_TRAFFIC in deny_out",
     "E2B rejects a policy whose allow_out has domain entries unless deny_out contains "
     "ALL_TRAFFIC (0.0.0.0/0).",
     "allow_out [\"pypi.org\"], deny_out []",
     "allow_out [\"pypi.org\"], deny_out [\"ALL_TRAFFIC\"]"},
    {R_COMPAT_DENY_DOMAIN, E, "E2B: host names are not supported in deny_out",
     "E2B accepts only addresses and CIDRs in deny_out. Deny addresses, or write an allow-list.",
     "deny_out [\"evil.com\"]", "allow_out [\"pypi.org\"], deny_out [\"ALL_TRAFFIC\"]"},
    {R_COMPAT_IPV6, E, "E2B: IPv6 entries are not enforced as written",
     "E2B's firewall is IPv4-only, turns a bare address into a /32 (2001:db8::1 becomes "
     "2001:db8::/32) and rejects ::/0 in deny_out.",
     "allow_out [\"2001:db8::1\"]", "allow_out [\"192.0.2.1\"]"},
    {R_UNENFORCEABLE, E, "the firewall and resolver rules cannot enforce this entry exactly",
     "boxlint policy --emit writes an nftables script and a dnsmasq configuration that decide "
     "every connection as the policy does. Host names reach the firewall only through the "
     "resolver: dnsmasq puts a name's answers into the set of its verdict, but one nftset= "
     "line covers a name and all its subdomains. When the policy treats a name and its "
     "subdomains differently, one side must be refusable by the resolver (a name denied "
     "whatever its address is need not resolve); when neither is, the entry is refused rather "
     "than enforced differently.",
     "allow_out [\"pypi.org\", \"10.0.0.0/8\"], deny_out [\"ALL_TRAFFIC\"]",
     "allow_out [\"pypi.org\", \"*.pypi.org\", \"10.0.0.0/8\"], deny_out [\"ALL_TRAFFIC\"]"},

};

size_t boxlint__rules_policy_first(void) {
  size_t i = 0;
  while (i < sizeof RULES / sizeof RULES[0] && strcmp(RULES[i].id, R_TYPE)) i++;
  return i;
}

const boxlint_rule_info *boxlint_rules(size_t *count) {
  if (count) *count = sizeof RULES / sizeof RULES[0];
  return RULES;
}

const boxlint_rule_info *boxlint_rule_find(const char *id, size_t len) {
  if (!id) return NULL;
  for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
    if (strlen(RULES[i].id) == len && !memcmp(RULES[i].id, id, len)) return &RULES[i];
  return NULL;
}

boxlint_severity bl_rule_severity(const char *rule) {
  const boxlint_rule_info *r = boxlint_rule_find(rule, strlen(rule));
  return r ? r->severity : BOXLINT_SEVERITY_ERROR;
}
