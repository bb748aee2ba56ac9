"""Python bindings: Errors, closed objects and bad arguments."""
import gc
import unittest

import boxlint
from support import GOOD, rules_of


class ErrorHandling(unittest.TestCase):
    def test_closed_policy_raises(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"])
        p.close()
        p.close()  # idempotent
        self.assertTrue(p.closed)
        with self.assertRaises(boxlint.ClosedError):
            p.decide(host="pypi.org")
        with self.assertRaises(boxlint.ClosedError):
            boxlint.check_template(**GOOD, network_policy=p)
        with self.assertRaises(boxlint.ClosedError):
            with p:
                pass

    def test_closed_config_raises(self):
        c = boxlint.Config()
        c.close()
        with self.assertRaisesRegex(boxlint.ClosedError, "Config is closed"):
            boxlint.check_commands(["RUN true"], config=c)

    def test_with_block_frees(self):
        with boxlint.NetworkPolicy("open") as p:
            pass
        self.assertTrue(p.closed)

    def test_close_while_in_use_defers_the_free(self):
        p = boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"])
        with p._use():
            p.close()
            self.assertIsNotNone(p._ptr)  # still held by the call in flight
        self.assertIsNone(p._ptr)

    def test_garbage_collector_fallback(self):
        p = boxlint.NetworkPolicy("open")
        del p
        gc.collect()

    def test_bad_types(self):
        cases = [
            (lambda: boxlint.check_commands("RUN true"), "commands must be a list of str"),
            (lambda: boxlint.check_commands(["RUN true", 3]), r"commands\[1\] must be a str"),
            (lambda: boxlint.check_template(**{**GOOD, "cpu_count": "2"}), "cpu_count must be"),
            (lambda: boxlint.check_template(**{**GOOD, "memory_mb": True}), "memory_mb must be"),
            (lambda: boxlint.check_template(**{**GOOD, "name": 7}), "name must be a str"),
            (lambda: boxlint.check_template(**GOOD, network_policy=["pypi.org"]),
             "network_policy must be"),
            (lambda: boxlint.check_template(**GOOD, network_policy={"alow_out": []}),
             "unknown key 'alow_out'"),
            (lambda: boxlint.NetworkPolicy("filtered", "pypi.org"),
             "allow_out must be a list"),
            (lambda: boxlint.NetworkPolicy(2), "type must be a str"),
            (lambda: boxlint.NetworkPolicy("open").decide(host=1), "host must be a str"),
            (lambda: boxlint.check_commands(["RUN true"], config={}), "config must be"),
            (lambda: boxlint.Config(severities=["x"]), "severities must be a mapping"),
        ]
        for fn, msg in cases:
            with self.subTest(msg=msg):
                self.assertRaisesRegex(TypeError, msg, fn)

    def test_fractional_resources_are_diagnostics_not_exceptions(self):
        r = boxlint.check_template(**{**GOOD, "cpu_count": 2.5, "memory_mb": 10 ** 30})
        self.assertEqual(rules_of(r), ["invalid-resources", "invalid-resources"])

    def test_decide_needs_a_destination(self):
        with boxlint.NetworkPolicy("open") as p:
            self.assertRaises(ValueError, p.decide)

    def test_emit_enforcement_rules(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org", "*.pythonhosted.org"],
                                   ["ALL_TRAFFIC"]) as p:
            conf = p.emit("dnsmasq", resolvers=["198.51.100.53"]).splitlines()
            self.assertIn("server=198.51.100.53", conf)
            self.assertIn("nftset=/pypi.org/4#inet#boxlint#allow4,6#inet#boxlint#allow6", conf)
            self.assertIn("address=/*.pypi.org/", conf)
            self.assertIn("address=/pythonhosted.org/", conf)
            script = p.emit("nftables", table="sandbox", iifname="veth0", resolvers=["198.51.100.53"])
            self.assertIn("table inet sandbox {", script)
            self.assertIn('iifname != "veth0" accept', script)
            self.assertIn("elements = { 0.0.0.0/0 }", script)
            self.assertRaises(ValueError, p.emit, "iptables")
            proxy = p.emit("nginx", resolvers=["198.51.100.53"], proxy_user="boxlint-proxy")
            self.assertIn("\t\tpypi.org allow;", proxy.splitlines())
            self.assertIn("user boxlint-proxy;", proxy.splitlines())
            script = p.emit("nftables", resolvers=["198.51.100.53"], proxy_user="www-data")
            self.assertIn("\t\tudp dport 443 drop", script.splitlines())
            self.assertRaises(ValueError, p.emit, "nginx", resolvers=["198.51.100.53"],
                              proxy_user="two words")
            self.assertRaises(ValueError, p.emit, "nftables", table="two words")
            self.assertRaises(ValueError, p.emit, "dnsmasq", resolvers=["pypi.org"])
        with boxlint.NetworkPolicy("filtered", ["pypi.org", "10.0.0.0/8"], ["ALL_TRAFFIC"]) as p:
            with self.assertRaises(boxlint.PolicyError) as cm:
                p.emit("nftables", resolvers=["198.51.100.53"])
            self.assertEqual([d.rule for d in cm.exception.errors], ["unenforceable-entry"])
            self.assertEqual(cm.exception.errors[0].path, "network_policy.allow_out[0]")
            with self.assertRaises(boxlint.PolicyError) as cm:  # an address: names cannot decide
                p.emit("nginx", resolvers=["198.51.100.53"])
            self.assertEqual(cm.exception.errors[0].path, "network_policy.allow_out[1]")
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"]) as p:
            with self.assertRaises(boxlint.PolicyError) as cm:  # DNS would be cut: no resolver
                p.emit("nftables")
            self.assertEqual(cm.exception.errors[0].path, "network_policy.deny_out[0]")
            self.assertIn("no resolver given", cm.exception.errors[0].message)

    def test_bad_option_values(self):
        self.assertRaises(ValueError, boxlint.NetworkPolicy, "open", unmatched="maybe")
        self.assertRaises(ValueError, boxlint.NetworkPolicy, "open", compat="aws")


if __name__ == "__main__":
    unittest.main()
