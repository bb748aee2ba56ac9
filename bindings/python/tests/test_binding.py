"""Python bindings: Agent bindings (add_code_interpreter's arguments)."""
import json
import unittest

import boxlint
from support import SEED


class Bindings(unittest.TestCase):
    def test_a_good_binding_is_clean(self):
        self.assertEqual(boxlint.check_binding(template_id="python-4g").diagnostics, ())
        r = boxlint.check_binding(template_id="my-py-extra", version=2, lifespan_seconds=1200,
                                  network_policy={"type": "filtered", "allow_out": ["pypi.org"],
                                                  "deny_out": ["ALL_TRAFFIC"]})
        self.assertEqual(r.diagnostics, ())
        self.assertTrue(r.ok)

    def test_each_field_fails(self):
        r = boxlint.check_binding(version=0, lifespan_seconds=-5, agent_name="x")
        self.assertEqual([(d.rule, d.severity, d.path, d.command) for d in r.diagnostics],
                         [("missing-field", "error", "template_id", None),
                          ("invalid-version", "error", "version", None),
                          ("invalid-lifespan", "error", "lifespan_seconds", None),
                          ("unknown-field", "warning", "agent_name", None)])
        self.assertEqual(r.diagnostics[1].message,
                         "version is 0: agent versions are numbered from 1")
        self.assertRaises(boxlint.ValidationError, r.raise_for_errors)

    def test_values_of_the_wrong_type_are_findings_spelt_by_repr(self):
        r = boxlint.check_binding(template_id=42, version="1", lifespan_seconds=2.5)
        self.assertEqual([(d.rule, d.message) for d in r.diagnostics], [
            ("invalid-template-id", "template_id must be a string, not 42"),
            ("invalid-version", "version must be an integer, not '1'"),
            ("invalid-lifespan", "lifespan_seconds must be an integer, not 2.5")])
        (d,) = boxlint.check_binding(template_id="t", version=True).diagnostics
        self.assertEqual(d.message, "version must be an integer, not True")
        (d,) = boxlint.check_binding(template_id="t", version=10 ** 30).diagnostics
        self.assertEqual(d.message, f"version must be an integer, not {10 ** 30}")

    def test_invalid_template_id_and_unusual_lifespan(self):
        r = boxlint.check_binding(template_id="My Template", lifespan_seconds=30)
        self.assertEqual([(d.rule, d.severity) for d in r.diagnostics],
                         [("invalid-template-id", "error"), ("unusual-lifespan", "warning")])
        with boxlint.Config({"unusual-lifespan": "off"}) as cfg:
            r = boxlint.check_binding(template_id="t", lifespan_seconds=30, config=cfg)
            self.assertEqual(r.diagnostics, ())

    def test_network_policy_of_a_binding(self):
        r = boxlint.check_binding(template_id="t", network_policy=SEED)
        self.assertEqual([(d.rule, d.path) for d in r.diagnostics],
                         [("allow-without-effect", "network_policy.allow_out[0]"),
                          ("allow-without-effect", "network_policy.allow_out[1]")])
        with boxlint.NetworkPolicy.from_dict(SEED) as p:
            self.assertEqual(boxlint.check_binding(template_id="t", network_policy=p).diagnostics,
                             r.diagnostics)

    def test_from_a_json_object(self):
        obj = json.loads('{"template_id": "python-4g", "version": 1, "lifespan_seconds": 600}')
        self.assertEqual(boxlint.check_binding(**obj).diagnostics, ())


if __name__ == "__main__":
    unittest.main()
