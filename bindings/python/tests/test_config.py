"""Python bindings: Config: severities, user rules, and config=None as the command's defaults."""
import json
import os
import subprocess
import unittest

import boxlint
from support import GOOD, SEED, rules_of


class Configs(unittest.TestCase):
    def test_user_rule_and_severity(self):
        cfg = boxlint.Config(
            severities={"unknown-field": "off"},
            user_rules=[boxlint.UserRule(id="no-latest", pattern=r":latest\b",
                                         message="pin a version", instruction="RUN",
                                         severity="error")])
        with cfg:
            r = boxlint.check_template(**GOOD, extra=1, config=cfg)
            self.assertEqual(r.diagnostics, ())
            r = boxlint.check_commands(["RUN docker pull x:latest"], config=cfg)
            (d,) = r.diagnostics
            self.assertEqual((d.rule, d.severity, d.message), ("no-latest", "error",
                                                               "pin a version"))
            self.assertEqual(cfg.user_rule_ids, ("no-latest",))
            self.assertEqual(cfg.severity("unknown-field"), "off")

    def test_config_applies_to_policy_warnings(self):
        cfg = boxlint.Config({"allow-without-effect": "info"})
        r = boxlint.check_template(**GOOD, network_policy=SEED, config=cfg)
        self.assertEqual({d.severity for d in r.diagnostics if d.rule == "allow-without-effect"},
                         {"info"})
        # a compiled NetworkPolicy is checked again under the call's config
        with boxlint.NetworkPolicy(**SEED) as p:
            self.assertEqual({d.severity for d in p.diagnostics}, {"warning"})
            r = boxlint.check_template(**GOOD, network_policy=p, config=cfg)
            self.assertEqual([(d.rule, d.severity, d.path) for d in r.diagnostics],
                             [("allow-without-effect", "info", "network_policy.allow_out[0]"),
                              ("allow-without-effect", "info", "network_policy.allow_out[1]")])
        with boxlint.Config({"allow-without-effect": "off"}) as off:
            with boxlint.NetworkPolicy(**SEED, config=off) as p:
                self.assertEqual(p.diagnostics, ())
            r = boxlint.check_binding(template_id="t", network_policy=SEED, config=off)
            self.assertEqual(r.diagnostics, ())
        # errors stay errors whatever the config
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"invalid-policy-entry": "warning"})
        cfg.close()


# The Quick Start of the README (examples/quickstart.py): its update's command keeps pip's cache.
QUICKSTART = """from budai import Client

client = Client()
tpl = client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["RUN pip install --no-cache-dir pydantic-ai"],
    cpu_count=2,
    memory_mb=4096,
)
client.code_interpreter.templates.update("my-py-extra", commands=["RUN pip install httpx"])
"""


class Defaults(unittest.TestCase):
    """config=None is the built-in defaults, as the command without a .boxlint.json."""

    def test_check_template_of_the_quick_start_reports_pip_no_cache_dir(self):
        r = boxlint.check_template(name="my-py-extra", commands=["RUN pip install httpx"],
                                   cpu_count=2, memory_mb=4096)
        (d,) = r.diagnostics
        self.assertEqual((d.rule, d.severity, d.command, d.line, d.column, d.end_column),
                         ("pip-no-cache-dir", "warning", 0, 1, 5, 16))
        self.assertIn("pip install keeps its download cache in the image", d.message)
        self.assertEqual(r.diagnostics, boxlint.check_template(
            name="my-py-extra", commands=["RUN pip install httpx"], cpu_count=2, memory_mb=4096,
            config=None).diagnostics)
        self.assertTrue(r.ok)
        with boxlint.Config({"pip-no-cache-dir": "off"}) as off:
            self.assertEqual(boxlint.check_template(
                name="my-py-extra", commands=["RUN pip install httpx"], cpu_count=2,
                memory_mb=4096, config=off).diagnostics, ())
        with boxlint.Config({"pip-no-cache-dir": "error"}) as err:
            r = boxlint.check_commands(["RUN pip install httpx"], config=err)
            self.assertEqual([(d.rule, d.severity) for d in r.diagnostics],
                             [("pip-no-cache-dir", "error")])
        # the same answer for a fragment and a Python file
        self.assertEqual(rules_of(boxlint.check_fragment("RUN pip install httpx\n")),
                         ["pip-no-cache-dir"])

    def test_the_same_findings_as_the_command(self):
        r = boxlint.check_python(QUICKSTART)
        got = [(d.rule, d.severity, d.line, d.column) for d in r.diagnostics]
        self.assertEqual(got, [("pip-no-cache-dir", "warning", 10, 72)])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "quickstart.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(QUICKSTART)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                f.write("{}")  # the defaults, and no config of a parent directory
            out = subprocess.run([cli, "--format", "json", path], capture_output=True,
                                 text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        (doc,) = json.loads(out.stdout)["files"]
        self.assertEqual([(x["rule"], x["severity"], x["line"], x["column"])
                          for x in doc["diagnostics"]], got)

    def test_a_config_gives_the_same_severities_as_the_command(self):
        # the library applies it, policy warnings and suppression reports included
        src = QUICKSTART + (
            'client.agents.add_code_interpreter("prm_abc", template_id="my-py-extra",\n'
            '    network_policy={"type": "filtered", "allow_out": ["pypi.org", "pypi.org"]})\n'
            "x = 1  # boxlint: ignroe=sudo-usage\n")
        rules = {"pip-no-cache-dir": "error", "allow-without-effect": "off",
                 "duplicate-entry": "info"}
        with boxlint.Config(rules) as cfg:
            got = [(d.rule, d.severity, d.line, d.column)
                   for d in boxlint.check_python(src, config=cfg).diagnostics]
        self.assertEqual(got, [("pip-no-cache-dir", "error", 10, 72),
                               ("duplicate-entry", "info", 12, 67),
                               ("unused-suppression", "warning", 13, 19)])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "app.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(src)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                json.dump({"rules": rules}, f)
            out = subprocess.run([cli, "--format", "json", path], capture_output=True,
                                 text=True)
            with boxlint.Config.load(os.path.join(d, ".boxlint.json")) as loaded:
                again = [(x.rule, x.severity, x.line, x.column)
                         for x in boxlint.check_python(src, config=loaded).diagnostics]
        self.assertEqual(out.returncode, 1, out.stderr)
        (doc,) = json.loads(out.stdout)["files"]
        self.assertEqual([(x["rule"], x["severity"], x["line"], x["column"])
                          for x in doc["diagnostics"]], got)
        self.assertEqual(again, got)

    def test_boxlint_policy_uses_the_config_found_for_its_file(self):
        policy = {"type": "filtered", "allow_out": ["pypi.org", "pypi.org"]}
        rules = {"allow-without-effect": "off", "duplicate-entry": "error"}
        with boxlint.Config(rules) as cfg, boxlint.NetworkPolicy(**policy, config=cfg) as p:
            got = [(d.rule, d.severity, d.path) for d in p.diagnostics]
        self.assertEqual(got, [("duplicate-entry", "error", "network_policy.allow_out[1]")])
        cli = os.environ.get("BOXLINT_CLI")
        if not cli:
            self.skipTest("BOXLINT_CLI not set (run through ctest)")
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "policy.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(policy, f)
            with open(os.path.join(d, ".boxlint.json"), "w", encoding="utf-8") as f:
                json.dump({"rules": rules}, f)
            out = subprocess.run([cli, "policy", "--format", "json", path], capture_output=True,
                                 text=True)
        self.assertEqual(out.returncode, 1, out.stderr)  # the raised warning fails the run
        doc = json.loads(out.stdout)
        self.assertEqual([(x["rule"], x["severity"], x["path"]) for x in doc["diagnostics"]], got)
        self.assertEqual(doc["normalized"]["allow_out"], ["pypi.org", "pypi.org"])  # compiled

    def test_from_dict_like_the_cli_file(self):
        with boxlint.Config.from_dict({"rules": {"unknown-field": "error"},
                                       "user_rules": [{"id": "x", "pattern": "y"}]}) as c:
            self.assertEqual(c.severity("unknown-field"), "error")

    def test_target_version(self):
        # the .boxlint.json key and the keyword: the grammar python files are read with
        src = "import budai\ntype X = int\n"
        self.assertEqual(boxlint.check_python(src).diagnostics, ())  # 3.14 by default
        with boxlint.Config.from_dict({"target-version": "py311"}) as c:
            self.assertEqual(c.target_version, "py311")
            d = boxlint.check_python(src, config=c).diagnostics
            self.assertEqual([(x.rule, x.line, x.column) for x in d], [("python-syntax", 2, 6)])
        with boxlint.Config(target_version="py312") as c:
            self.assertEqual(boxlint.check_python(src, config=c).diagnostics, ())
        with boxlint.Config() as c:
            self.assertIsNone(c.target_version)
        for bad in ("py37", "py315", "3.11", 311):
            with self.assertRaises((ValueError, TypeError)):
                boxlint.Config(target_version=bad)

    def test_refusals(self):
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"denied-instruction": "off"})  # errors cannot be switched off
        with self.assertRaises(boxlint.ConfigError):
            boxlint.Config({"no-such-rule": "warning"})
        with self.assertRaises(boxlint.ConfigError) as cm:
            boxlint.Config(user_rules=[{"id": "bad", "pattern": "a(b"}])
        self.assertEqual(cm.exception.status, "BOXLINT_EREGEX")
        with self.assertRaises(ValueError):
            boxlint.Config({"unknown-field": "loud"})


if __name__ == "__main__":
    unittest.main()
