"""Python bindings: NetworkPolicy: compiling, decisions, a template's policy."""
import threading
import unittest

import boxlint
from support import GOOD, SEED


class Policies(unittest.TestCase):
    SEED = SEED

    def test_seed_example_alone_allows_everything(self):
        with boxlint.NetworkPolicy(**self.SEED) as p:
            self.assertIn("allow-without-effect", [d.rule for d in p.diagnostics])
            d = next(d for d in p.diagnostics if d.rule == "allow-without-effect")
            self.assertIn("ALL_TRAFFIC", d.hint)
            self.assertEqual(d.fix.text, "ALL_TRAFFIC")
            self.assertEqual((d.fix.unsafe, d.fix.applicability), (True, "unsafe"))
            self.assertEqual(p.decide(host="github.com").verdict, "allow")

    def test_seed_example_with_all_traffic_denied(self):
        p = boxlint.NetworkPolicy(type="filtered", allow_out=["pypi.org", "*.pythonhosted.org"],
                                  deny_out=["ALL_TRAFFIC"])
        try:
            self.assertEqual(p.diagnostics, ())
            self.assertEqual(p.deny_out, ("0.0.0.0/0",))
            ok = p.decide(host="pypi.org")
            self.assertEqual((ok.verdict, ok.reason, ok.list, ok.index, ok.entry),
                             ("allow", "rule", "allow_out", 0, "pypi.org"))
            self.assertTrue(ok.allowed and ok.by_name)
            files = p.decide(host="files.pythonhosted.org")
            self.assertEqual((files.verdict, files.index, files.entry),
                             ("allow", 1, "*.pythonhosted.org"))
            no = p.decide(host="github.com")
            self.assertEqual((no.verdict, no.reason, no.list, no.index, no.entry),
                             ("deny", "rule", "deny_out", 0, "0.0.0.0/0"))
            self.assertEqual(p.decide(ip="140.82.112.3").verdict, "deny")
        finally:
            p.close()

    def test_template_with_a_policy(self):
        r = boxlint.check_template(**GOOD, network_policy=self.SEED)
        d = next(d for d in r.diagnostics if d.rule == "allow-without-effect")
        self.assertEqual(d.severity, "warning")
        self.assertTrue(d.path.startswith("network_policy."))
        self.assertTrue(r.ok)
        with boxlint.NetworkPolicy.from_dict(self.SEED) as p:
            r2 = boxlint.check_template(**GOOD, network_policy=p)
        self.assertEqual(r.diagnostics, r2.diagnostics)

    def test_invalid_policy_raises_with_detail(self):
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy(type="filtered", allow_out=["https://pypi.org/simple"],
                                  deny_out=["10.0.0.1/8"])
        errs = cm.exception.errors
        self.assertEqual([(e.rule, e.path, e.detail) for e in errs],
                         [("invalid-policy-entry", "network_policy.allow_out[0]", "url"),
                          ("invalid-policy-entry", "network_policy.deny_out[0]", "host-bits")])
        self.assertIsInstance(cm.exception, boxlint.ValidationError)
        with self.assertRaises(boxlint.PolicyError):
            boxlint.NetworkPolicy(type="open", allow_out=["pypi.org"])
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy(type="filterd")
        self.assertEqual(cm.exception.errors[0].rule, "invalid-policy-type")

    def test_invalid_policy_in_a_template_is_reported(self):
        r = boxlint.check_template(**GOOD, network_policy={"type": "filtered",
                                                           "allow_out": ["pypi.org:443"]})
        (d,) = r.errors
        self.assertEqual((d.rule, d.detail, d.path),
                         ("invalid-policy-entry", "port", "network_policy.allow_out[0]"))
        self.assertRaises(boxlint.ValidationError, boxlint.validate_template, **GOOD,
                          network_policy={"type": "filtered", "allow_out": ["pypi.org:443"]})

    def test_unmatched_deny_and_compat(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], unmatched="deny") as p:
            d = p.decide(host="github.com")
            self.assertEqual((d.verdict, d.reason, d.entry), ("deny", "default", None))
        with self.assertRaises(boxlint.PolicyError) as cm:
            boxlint.NetworkPolicy("filtered", ["pypi.org"], compat="e2b")
        self.assertIn("domains-require-deny-all", [e.rule for e in cm.exception.errors])

    def test_needs_ip_and_invalid_destination(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], ["10.0.0.0/8"]) as p:
            self.assertEqual(p.decide(host="example.com").reason, "needs-ip")
            self.assertEqual(p.decide(host="example.com").verdict, "unknown")
            self.assertEqual(p.decide(host="example.com", ip="10.1.2.3").verdict, "deny")
            bad = p.decide(ip="010.1.2.3")
            self.assertEqual((bad.verdict, bad.reason), ("deny", "invalid-destination"))

    def test_disabled_and_open(self):
        with boxlint.NetworkPolicy() as p:
            self.assertEqual(p.type, "disabled")
            self.assertEqual(p.decide(host="pypi.org").reason, "policy-disabled")
        with boxlint.NetworkPolicy("open") as p:
            self.assertEqual(p.decide(ip="1.1.1.1").reason, "policy-open")

    def test_sdk_model_objects_are_accepted(self):
        class SdkPolicy:  # budai.NetworkPolicy's attributes
            type = "filtered"
            allow_out = ["pypi.org"]
            deny_out = ["ALL_TRAFFIC"]
        with boxlint.NetworkPolicy.from_dict(SdkPolicy()) as p:
            self.assertEqual(p.decide(host="pypi.org").verdict, "allow")
        self.assertTrue(boxlint.check_template(**GOOD, network_policy=SdkPolicy()).ok)

    def test_shared_between_threads(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org", "*.pythonhosted.org"], ["ALL_TRAFFIC"])
        failures = []

        def work():
            for _ in range(500):
                if p.decide(host="files.pythonhosted.org").verdict != "allow" or \
                        p.decide(host="github.com").verdict != "deny":
                    failures.append(1)
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        p.close()
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main()
