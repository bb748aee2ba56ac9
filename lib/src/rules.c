/* The rule table: ids (an interface: never renamed), default severities and explanations. */
#include <string.h>
#include "dockerfile_int.h"

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
   "A template needs name, commands, cpu_count and memory_mb.", "{\"name\": \"t\"}",
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
};

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
