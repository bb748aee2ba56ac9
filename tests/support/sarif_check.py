#!/usr/bin/env python3
"""Checks a SARIF log as SARIF consumers do.

validate(doc) / validate_all(docs) return, for each parsed SARIF document, a list of errors
(empty: valid) from two checks:

- the SARIF 2.1.0 JSON schema (tests/data/sarif/sarif-schema-2.1.0.json; where it comes from:
  tests/data/sarif/README.md), checked with Debian's python3-jsonschema. This module may be
  imported by any Python (ctest runs the tests with whatever `python3` CMake found, a pyenv one
  here), so the schema check always runs as `/usr/bin/python3 -I sarif_check.py --schema`, and
  it insists on the jsonschema under /usr/lib/python3/dist-packages; when that is missing the
  check raises MissingValidator (`make deps` installs python3-jsonschema). The schema's
  "format"s (uri, uri-reference, uuid, date-time) are checked by the grammars below, not by
  the optional packages jsonschema would look for (make deps installs no Recommends);
- what the SARIF 2.1.0 text requires of artifact locations and that a schema cannot say
  (§3.4.3-§3.4.4, §3.14.14; the same rules as SARIF1002 and SARIF1004 of Microsoft's validator):
  a relative reference never begins with '/', uriBaseId goes only with a relative reference and
  is declared in run.originalUriBaseIds, whose URIs are absolute, end in '/' and have no query,
  fragment or dot segment; file URIs have no dot segments either.

multitool_validate(docs) runs Microsoft's SARIF Multitool (`validate`, its default rules) on the
documents when it is installed at tests/data/sarif/node_modules (npm ci --prefix
tests/data/sarif); it returns (None, reason) when it is not.
"""
import json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "data", "sarif", "sarif-schema-2.1.0.json")
DEBIAN_PYTHON = "/usr/bin/python3"
DEBIAN_SITE = "/usr/lib/python3/dist-packages/"
MULTITOOL = os.path.join(HERE, "..", "data", "sarif", "node_modules", "@microsoft", "sarif-multitool-linux",
                         "Sarif.Multitool")
# Multitool warnings that boxlint's logs have for a known reason. SARIF2005: the driver has no
# informationUri, because the project has no public home page yet.
MULTITOOL_ACCEPTED_WARNINGS = {"SARIF2005"}


class MissingValidator(RuntimeError):
    pass


# ---- RFC 3986 (Appendix A), RFC 4122 and RFC 3339 grammars ------------------------------------
_unres, _pct, _sub = r"A-Za-z0-9\-._~", r"%[0-9A-Fa-f]{2}", r"!$&'()*+,;="
_pchar = rf"(?:[{_unres}{_sub}:@]|{_pct})"
_seg, _seg_nz = rf"{_pchar}*", rf"{_pchar}+"
_seg_nz_nc = rf"(?:[{_unres}{_sub}@]|{_pct})+"
_dec = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_ipv4 = rf"{_dec}\.{_dec}\.{_dec}\.{_dec}"
_ip_literal = rf"\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\.[{_unres}{_sub}:]+)\]"
_host = rf"(?:{_ip_literal}|{_ipv4}|(?:[{_unres}{_sub}]|{_pct})*)"
_authority = rf"(?:(?:[{_unres}{_sub}:]|{_pct})*@)?{_host}(?::[0-9]*)?"
_abempty = rf"(?:/{_seg})*"
_absolute = rf"/(?:{_seg_nz}(?:/{_seg})*)?"
_query = rf"(?:{_pchar}|[/?])*"
_tail = rf"(?:\?{_query})?(?:#{_query})?"
URI = re.compile(rf"[A-Za-z][A-Za-z0-9+\-.]*:(?://{_authority}{_abempty}|{_absolute}|{_seg_nz}(?:/{_seg})*|){_tail}")
RELATIVE_REF = re.compile(rf"(?://{_authority}{_abempty}|{_absolute}|{_seg_nz_nc}(?:/{_seg})*|){_tail}")
UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
DATE_TIME = re.compile(r"\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)")


def is_uri(s):
    return bool(URI.fullmatch(s))


def is_uri_reference(s):
    return bool(URI.fullmatch(s) or RELATIVE_REF.fullmatch(s))


# ---- the schema, in Debian's Python ------------------------------------------------------------
def _schema_errors_here(docs):
    """Runs inside /usr/bin/python3: the schema errors of each document."""
    import jsonschema
    if not jsonschema.__file__.startswith(DEBIAN_SITE):
        raise MissingValidator("jsonschema is not Debian's python3-jsonschema: " + jsonschema.__file__)
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    formats = jsonschema.FormatChecker(formats=())
    for name, ok in (("uri", is_uri), ("uri-reference", is_uri_reference),
                     ("uuid", lambda s: bool(UUID.fullmatch(s))), ("date-time", lambda s: bool(DATE_TIME.fullmatch(s)))):
        formats.checks(name)(lambda s, ok=ok: not isinstance(s, str) or ok(s))
    used = set(re.findall(r'"format"\s*:\s*"([^"]+)"', json.dumps(schema)))
    missing = used - set(formats.checkers)
    if missing:
        raise MissingValidator("no checker for the schema's formats %s" % sorted(missing))
    validator = cls(schema, format_checker=formats)
    out = []
    for doc in docs:
        errs = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        out.append(["schema: %s: %s" % ("/".join(map(str, e.absolute_path)) or "(root)", e.message[:300])
                    for e in errs[:20]])
    return out


def _schema_errors(docs):
    if not os.access(DEBIAN_PYTHON, os.X_OK):
        raise MissingValidator(DEBIAN_PYTHON + " is missing: SARIF logs are validated with Debian's "
                               "python3-jsonschema (make deps installs it)")
    p = subprocess.run([DEBIAN_PYTHON, "-I", os.path.abspath(__file__), "--schema"],
                       input=json.dumps(docs).encode(), capture_output=True, timeout=300)
    if p.returncode != 0:
        raise MissingValidator("SARIF schema validation with %s failed (is Debian's python3-jsonschema "
                               "installed? make deps installs it):\n%s" % (DEBIAN_PYTHON, p.stderr.decode(errors="replace")[-2000:]))
    return json.loads(p.stdout)


# ---- the SARIF text's rules on artifact locations ---------------------------------------------
def _has_dot_segment(path):
    return any(s in (".", "..") for s in path.split("?")[0].split("#")[0].split("/"))


def _location_errors(run, where, loc, errors):
    uri, base = loc.get("uri"), loc.get("uriBaseId")
    if uri is None:
        if "index" not in loc:
            errors.append("%s: an artifactLocation needs a uri or an index (SARIF 3.4.3)" % where)
        return
    if not isinstance(uri, str) or not is_uri_reference(uri):
        errors.append("%s: uri %r is not an RFC 3986 URI reference" % (where, uri))
        return
    if is_uri(uri):
        if base is not None:
            errors.append("%s: uri %r is absolute, so uriBaseId must be absent (SARIF 3.4.4)" % (where, uri))
        if uri.lower().startswith("file:"):
            if not uri.lower().startswith("file:///"):
                errors.append("%s: file URI %r is not of the form file:///path" % (where, uri))
            if _has_dot_segment(uri[len("file://"):]):
                errors.append("%s: file URI %r has a '.' or '..' segment (SARIF1002)" % (where, uri))
        return
    if uri.startswith("/"):
        errors.append("%s: relative reference %r begins with a slash (SARIF 3.4.3, SARIF1004)" % (where, uri))
    if base is None:
        errors.append("%s: relative reference %r has no uriBaseId to resolve it against (SARIF 3.4.4 says SHOULD; boxlint always gives one)" % (where, uri))
    elif base not in (run.get("originalUriBaseIds") or {}):
        errors.append("%s: uriBaseId %r is not declared in run.originalUriBaseIds" % (where, base))


def _walk(node, path, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "artifactLocation" and isinstance(v, dict):
                out.append(("%s.%s" % (path, k), v))
            _walk(v, "%s.%s" % (path, k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _walk(v, "%s[%d]" % (path, i), out)


def semantic_errors(doc):
    errors = []
    for ri, run in enumerate(doc.get("runs") or [] if isinstance(doc, dict) else []):
        if not isinstance(run, dict):
            continue
        for name, loc in (run.get("originalUriBaseIds") or {}).items():
            where = "runs[%d].originalUriBaseIds[%r]" % (ri, name)
            uri = loc.get("uri") if isinstance(loc, dict) else None
            if uri is None:
                continue
            if loc.get("uriBaseId") is None and not (isinstance(uri, str) and is_uri(uri)):
                errors.append("%s: uri %r is not an absolute URI (SARIF 3.14.14)" % (where, uri))
                continue
            if not uri.endswith("/"):
                errors.append("%s: uri %r does not end with a slash (SARIF 3.14.14)" % (where, uri))
            if "?" in uri or "#" in uri:
                errors.append("%s: uri %r has a query or fragment (SARIF 3.14.14)" % (where, uri))
            if _has_dot_segment(uri.split(":", 1)[-1].lstrip("/")):
                errors.append("%s: uri %r has a '.' or '..' segment (SARIF1004)" % (where, uri))
        locs = []
        _walk(run, "runs[%d]" % ri, locs)
        for i, a in enumerate(run.get("artifacts") or []):
            if isinstance(a, dict) and isinstance(a.get("location"), dict):
                locs.append(("runs[%d].artifacts[%d].location" % (ri, i), a["location"]))
        for where, loc in locs:
            _location_errors(run, where, loc, errors)
    return errors


def validate_all(docs):
    """The errors of each document: schema errors, then the SARIF text's."""
    schema = _schema_errors(docs)
    return [s + semantic_errors(d) for s, d in zip(schema, docs)]


def validate(doc):
    return validate_all([doc])[0]


# ---- Microsoft's SARIF Multitool --------------------------------------------------------------
def multitool_validate(docs):
    """(errors per document, None), or (None, why it did not run) when it is not installed.
    Errors: the Multitool's error results, and warnings not in MULTITOOL_ACCEPTED_WARNINGS."""
    if not os.path.exists(MULTITOOL):
        return None, "Microsoft's SARIF Multitool is not installed at %s (npm ci --prefix tests/data/sarif)" % MULTITOOL
    if not os.access(MULTITOOL, os.X_OK):
        return None, "%s is not executable (its npm postinstall did not run: chmod u+x it)" % MULTITOOL
    with tempfile.TemporaryDirectory() as d:
        files = []
        for i, doc in enumerate(docs):
            files.append(os.path.join(d, "doc-%03d.sarif" % i))
            with open(files[-1], "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=2)
        log = os.path.join(d, "multitool.sarif")
        env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1", DOTNET_CLI_TELEMETRY_OPTOUT="1")
        p = subprocess.run([MULTITOOL, "validate", "--log", "ForceOverwrite", "-o", log] + files,
                           capture_output=True, timeout=600, env=env)
        if p.returncode != 0 or not os.path.exists(log):
            return [["multitool: exit %d: %s" % (p.returncode, (p.stdout + p.stderr).decode(errors="replace")[-2000:])]] * len(docs), None
        with open(log, encoding="utf-8-sig") as f:
            out = json.load(f)
    errors = [[] for _ in docs]
    for run in out.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for inv in run.get("invocations", []):
            if not inv.get("executionSuccessful", False):
                for e in errors:
                    e.append("multitool: execution failed: %s" % json.dumps(inv.get("toolExecutionNotifications"))[:1000])
        for res in run.get("results", []):
            level = res.get("level", "warning")
            if level == "note" or level == "none" or (level == "warning" and res.get("ruleId") in MULTITOOL_ACCEPTED_WARNINGS):
                continue
            msg = res.get("message", {})
            text = msg.get("text")
            if text is None:
                rule = rules[res["ruleIndex"]] if isinstance(res.get("ruleIndex"), int) and res["ruleIndex"] < len(rules) else {}
                text = rule.get("messageStrings", {}).get(msg.get("id"), {}).get("text", msg.get("id", ""))
                for k, a in enumerate(msg.get("arguments", [])):
                    text = text.replace("{%d}" % k, str(a))
            uri = (res.get("locations") or [{}])[0].get("physicalLocation", {}).get("artifactLocation", {}).get("uri", "")
            m = re.search(r"doc-(\d+)\.sarif$", uri)
            for i in ([int(m.group(1))] if m else range(len(docs))):
                errors[i].append("multitool %s %s: %s" % (level, res.get("ruleId"), text))
    return errors, None


if __name__ == "__main__":
    if sys.argv[1:] == ["--schema"]:  # /usr/bin/python3 -I sarif_check.py --schema < [docs]
        try:
            json.dump(_schema_errors_here(json.load(sys.stdin)), sys.stdout)
        except (ImportError, MissingValidator) as e:
            sys.exit("sarif_check: %s" % e)
    else:  # sarif_check.py FILE...: every check on each SARIF file
        docs = []
        for name in sys.argv[1:]:
            with open(name, encoding="utf-8") as f:
                docs.append(json.load(f))
        bad = 0
        mt, why = multitool_validate(docs)
        if why:
            print("skipped: " + why)
        for name, errs, merrs in zip(sys.argv[1:], validate_all(docs), mt or [[]] * len(docs)):
            for e in errs + merrs:
                print("%s: %s" % (name, e))
            bad += bool(errs or merrs)
        sys.exit(1 if bad else 0)
