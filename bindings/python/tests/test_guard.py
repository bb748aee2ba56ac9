"""Python bindings: boxlint/_guard.py, the runtime guard, against a recording stub of the SDK.

The stub is a module named ``budai`` (BudClient, AsyncBudClient, NetworkPolicy) whose methods
take the SDK's documented signatures and record every call. For each way a program can hide a
value from a static reader, a rejected value raises ValidationError and the stub records
nothing; good values reach it unchanged (the same objects)."""
import asyncio
import inspect
import json
import operator
import os
import sys
import tempfile
import threading
import types
import unittest
import warnings

import boxlint

from support import GOOD, SEED


# The stub SDK's resources: each records its calls into the client's list.
class _Templates:
    def __init__(self, calls):
        self.calls = calls

    def create(self, name, commands, cpu_count, memory_mb):
        self.calls.append(("create", name, commands, cpu_count, memory_mb))
        return ("template", name)

    def update(self, template_id, commands):
        self.calls.append(("update", template_id, commands))
        return ("template", template_id)

    def get(self, template_id):
        self.calls.append(("get", template_id))
        return ("template", template_id)

    def delete(self, template_id):
        self.calls.append(("delete", template_id))

class _ATemplates(_Templates):
    async def create(self, name, commands, cpu_count, memory_mb):
        await asyncio.sleep(0)
        self.calls.append(("create", name, commands, cpu_count, memory_mb))
        return ("template", name)

    async def update(self, template_id, commands):
        self.calls.append(("update", template_id, commands))
        return ("template", template_id)

class _Agents:
    def __init__(self, calls):
        self.calls = calls

    def add_code_interpreter(self, agent_id, template_id, version=1, lifespan_seconds=1200,
                             network_policy=None):
        self.calls.append(("bind", agent_id, template_id, version, lifespan_seconds,
                           network_policy))
        return ("binding", agent_id)

    def remove_code_interpreter(self, agent_id):
        self.calls.append(("remove", agent_id))

class _AAgents(_Agents):
    async def add_code_interpreter(self, agent_id, template_id, version=1,
                                   lifespan_seconds=1200, network_policy=None):
        self.calls.append(("bind", agent_id, template_id, version, lifespan_seconds,
                           network_policy))
        return ("binding", agent_id)

class _CI:
    def __init__(self, templates):
        self.templates = templates


def _stub_sdk():
    """A fresh fake ``budai``: each client has its own ``calls`` list."""
    m = types.ModuleType("budai")

    class NetworkPolicy:
        made = []  # every construction, recorded

        def __init__(self, type="disabled", allow_out=(), deny_out=()):
            NetworkPolicy.made.append((type, allow_out, deny_out))
            self.type, self.allow_out, self.deny_out = type, list(allow_out), list(deny_out)

    class BudClient:
        _T, _A = _Templates, _Agents

        def __init__(self, api_key="k"):
            self.calls = []
            self.api_key = api_key
            self.code_interpreter = _CI(self._T(self.calls))
            self.agents = self._A(self.calls)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    class AsyncBudClient(BudClient):
        _T, _A = _ATemplates, _AAgents

        async def __aenter__(self):
            return self

        async def __aexit__(self, *exc):
            return False

    m.BudClient, m.AsyncBudClient, m.NetworkPolicy = BudClient, AsyncBudClient, NetworkPolicy
    return m


class GuardCase(unittest.TestCase):
    def setUp(self):
        self.sdk = _stub_sdk()
        self._saved = sys.modules.get("budai")
        sys.modules["budai"] = self.sdk  # so that exec'd text can import it
        self.raw = self.sdk.BudClient()
        self.client = boxlint.guard(self.raw)

    def tearDown(self):
        if self._saved is None:
            sys.modules.pop("budai", None)
        else:
            sys.modules["budai"] = self._saved

    def rejected(self, fn, *want):
        """``fn()`` raises ValidationError with errors (rule, loc) ``want``; nothing sent."""
        with self.assertRaises(boxlint.ValidationError) as cm:
            fn()
        got = [(e["type"], e["loc"]) for e in cm.exception.errors]
        for w in want:
            self.assertIn(w, got)
        self.assertEqual(self.raw.calls, [], "the stub was called")
        return cm.exception


class Rejected(GuardCase):
    """Each way of hiding a value: the error is raised and the stub records nothing."""

    def create(self, **over):
        kw = dict(GOOD, **over)
        return lambda: self.client.code_interpreter.templates.create(**kw)

    def test_direct_denied_from(self):
        e = self.rejected(self.create(commands=["FROM nvidia/cuda:12.4.0"]),
                          ("denied-instruction", ["body", "commands", 0]))
        self.assertIsInstance(e, ValueError)
        self.assertIn("commands[0]", str(e))
        self.assertIn("[denied-instruction]", str(e))
        self.assertEqual(e.body, {"detail": [dict(x) for x in e.errors]})
        item = e.errors[0]
        self.assertEqual(set(item), {"loc", "msg", "type", "ctx"})
        self.assertEqual(set(item["ctx"]), {"hint", "line", "column", "severity", "fix"})
        self.assertEqual(item["ctx"]["severity"], "error")
        self.assertIn("FROM is not allowed", item["msg"])

    def test_reflection_getattr(self):
        t = self.client.code_interpreter.templates
        fn = getattr(t, "cre" + "ate")
        self.rejected(lambda: fn(**dict(GOOD, commands=["FR" + "OM x"])),
                      ("denied-instruction", ["body", "commands", 0]))

    def test_reflection_methodcaller_and_attrgetter(self):
        call = operator.methodcaller("create", **dict(GOOD, commands=["CMD x"]))
        self.rejected(lambda: call(self.client.code_interpreter.templates),
                      ("denied-instruction", ["body", "commands", 0]))
        create = operator.attrgetter("code_interpreter.templates.create")(self.client)
        self.rejected(lambda: create(**dict(GOOD, commands=["ENTRYPOINT x"])),
                      ("denied-instruction", ["body", "commands", 0]))

    def test_exec_and_eval(self):
        env = {"client": self.client}
        self.rejected(lambda: exec("client.code_interpreter.templates.create(name='a', "
                                   "commands=['ADD x /'], cpu_count=2, memory_mb=4096)", env),
                      ("denied-instruction", ["body", "commands", 0]))
        self.rejected(lambda: eval("client.agents.add_code_interpreter('prm', 'python-4g', "
                                   "network_policy={'type': 'filtered', 'allow_out': True})",
                                   env),
                      ("invalid-argument-type", ["body", "network_policy", "allow_out"]))

    def test_shadowing_networkpolicy(self):
        class NetworkPolicy(dict):  # a local shadow: its value is what is sent
            pass
        np = NetworkPolicy(type="filtered", allow_out=["bad..host"], deny_out=[])
        self.rejected(lambda: self.client.agents.add_code_interpreter("prm", template_id="t",
                                                                      network_policy=np),
                      ("invalid-policy-entry", ["body", "network_policy", "allow_out", 0]))

    def test_dict_subclass_that_lies(self):
        class Liar(dict):  # what its methods say is not what it holds
            def get(self, k, d=None):
                return {"type": "open"}.get(k, d)

            def items(self):
                return [("type", "open")]
        np = Liar(type="open", allow_out=["pypi.org"])
        self.rejected(lambda: self.client.agents.add_code_interpreter("prm", "t",
                                                                      network_policy=np),
                      ("lists-not-allowed", ["body", "network_policy", "allow_out"]))

    def test_list_and_str_subclasses_are_read_for_what_they_hold(self):
        class Looks(list):
            def __iter__(self):
                return iter(["RUN true"])

        class S(str):
            def __str__(self):
                return "RUN true"
        self.rejected(self.create(commands=Looks(["FROM x"])),
                      ("denied-instruction", ["body", "commands", 0]))
        self.rejected(self.create(commands=[S("COPY a b")]),
                      ("denied-instruction", ["body", "commands", 0]))

    def test_subclasses_that_would_show_the_sdk_other_values(self):
        class Hides(list):  # holds a good command, shows a bad one to whoever iterates it
            def __iter__(self):
                return iter(["FROM x"])

        class Says(str):
            def __str__(self):
                return "FROM x"

        class Gets(dict):
            def __getitem__(self, k):
                return ["*"] if k == "allow_out" else dict.__getitem__(self, k)
        e = self.rejected(self.create(commands=Hides(["RUN true"])),
                          ("invalid-argument-type", ["body", "commands"]))
        self.assertIn("subclass", e.errors[0]["msg"])
        self.rejected(self.create(commands=[Says("RUN true")]),
                      ("invalid-argument-type", ["body", "commands", 0]))
        self.rejected(self.create(name=Says("my-py-extra")),
                      ("invalid-argument-type", ["body", "name"]))
        self.rejected(lambda: self.client.agents.add_code_interpreter(
            "p", "t", network_policy=Gets(type="filtered", allow_out=[], deny_out=[])),
            ("invalid-argument-type", ["body", "network_policy"]))

    def test_rebound_name(self):
        make = self.client.code_interpreter.templates.create
        alias = make
        self.rejected(lambda: alias(GOOD["name"], ["pip install x"], 2, 4096),
                      ("unknown-instruction", ["body", "commands", 0]))

    def test_code_object_replaced(self):
        def honest(c):
            return c.code_interpreter.templates.create(**GOOD)

        def evil(c):
            return c.code_interpreter.templates.create(name="a", commands=["FROM evil"],
                                                       cpu_count=2, memory_mb=4096)
        honest.__code__ = evil.__code__
        self.rejected(lambda: honest(self.client), ("denied-instruction", ["body", "commands", 0]))

    def test_runtime_values(self):
        self.rejected(self.create(commands=["RUN true"] * 65),
                      ("too-many-commands", ["body", "commands", 64]))
        cmds = []
        for i in range(65):
            cmds.append(f"RUN echo {i}")
        e = self.rejected(self.create(commands=cmds))
        self.assertIn("too-many-commands", [x.rule for x in e.errors])
        self.rejected(self.create(commands=["RUN a\nFROM b"]),
                      ("multiple-instructions", ["body", "commands", 0]))
        self.rejected(self.create(commands=["RUN a\rb"]), ("bare-cr", ["body", "commands", 0]))
        self.rejected(self.create(commands=["RUN true", "RUN a\0b"]),
                      ("nul-byte", ["body", "commands", 1]))
        self.rejected(self.create(commands=["RUN echo " + "x" * 5000]),
                      ("command-too-long", ["body", "commands", 0]))

    def test_field_types_as_in_json(self):
        self.rejected(lambda: self.client.agents.add_code_interpreter(
            "prm", "t", network_policy={"type": "filtered", "allow_out": True}),
            ("invalid-argument-type", ["body", "network_policy", "allow_out"]))
        e = self.rejected(self.create(commands="RUN a"),
                          ("invalid-argument-type", ["body", "commands"]))
        self.assertEqual(e.errors[0]["msg"], "commands must be a list of strings")
        self.rejected(self.create(commands=(c for c in ["RUN a"])),
                      ("invalid-argument-type", ["body", "commands"]))
        self.rejected(self.create(commands=["RUN a", 3]),
                      ("invalid-argument-type", ["body", "commands", 1]))
        self.rejected(self.create(cpu_count=True), ("invalid-resources", ["body", "cpu_count"]))
        self.rejected(self.create(name=b"x"), ("invalid-argument-type", ["body", "name"]))
        e = self.rejected(lambda: self.client.agents.add_code_interpreter(
            "prm", "t", version=True))
        self.assertEqual([x.rule for x in e.errors], ["invalid-version"])

    def test_signature_errors_as_the_library_reports_them(self):
        e = self.rejected(self.create(nmae="x"), ("unknown-argument", ["body"]))
        self.assertEqual(e.errors[0]["msg"], "templates.create() got an unexpected keyword "
                                             "argument 'nmae' (the SDK raises TypeError)")
        self.assertEqual(e.errors[0]["ctx"]["hint"], 'did you mean "name"?')
        e = self.rejected(lambda: self.client.code_interpreter.templates.update(
            "my-py-extra", commands=["RUN a"], cpu_count=2), ("unknown-argument", ["body"]))
        self.assertEqual(e.errors[0]["ctx"]["hint"], "'cpu_count' is an argument of "
                                                     "templates.create, not of templates.update")
        e = self.rejected(lambda: self.client.code_interpreter.templates.update(
            commands=["RUN a"]), ("missing-field", ["body"]))
        self.assertIn("missing the required argument 'template_id'", e.errors[0]["msg"])
        e = self.rejected(lambda: self.client.agents.add_code_interpreter(
            "a", "t", 1, 1200, None, 6), ("unknown-argument", ["body"]))
        self.assertEqual(e.errors[0]["msg"], "add_code_interpreter() takes 5 positional "
                                             "arguments but 6 were given (the SDK raises "
                                             "TypeError)")
        self.rejected(lambda: self.client.agents.add_code_interpreter(
            "a", "t", template_id="t"), ("unknown-argument", ["body"]))

    def test_update_checks_what_it_is_given(self):
        self.rejected(lambda: self.client.code_interpreter.templates.update(
            "Bad Id", ["RUN a"]), ("invalid-name", ["body", "template_id"]))
        self.rejected(lambda: self.client.code_interpreter.templates.update(
            "my-py-extra", commands=["RUN a", "FROM b"]),
            ("denied-instruction", ["body", "commands", 1]))

    def test_command_index_is_the_callers_after_a_wrong_type(self):
        self.rejected(self.create(commands=[3, "FROM x"]),
                      ("invalid-argument-type", ["body", "commands", 0]),
                      ("denied-instruction", ["body", "commands", 1]))


class Passing(GuardCase):
    def test_good_values_reach_the_sdk_unchanged(self):
        cmds = list(GOOD["commands"])
        name = GOOD["name"]
        got = self.client.code_interpreter.templates.create(name=name, commands=cmds,
                                                            cpu_count=2, memory_mb=4096)
        self.assertEqual(got, ("template", name))
        (call,) = self.raw.calls
        self.assertIs(call[1], name)
        self.assertIs(call[2], cmds)
        np = self.sdk.NetworkPolicy(type="filtered", allow_out=["pypi.org"],
                                    deny_out=["ALL_TRAFFIC"])
        self.client.agents.add_code_interpreter("prm_abc", template_id="t", version=1,
                                                lifespan_seconds=1200, network_policy=np)
        self.assertIs(self.raw.calls[1][5], np)
        seed = dict(SEED)
        with warnings.catch_warnings(record=True):  # the seed's allow-without-effect
            warnings.simplefilter("always")
            self.client.agents.add_code_interpreter("prm_abc", "t", network_policy=seed)
        self.assertIs(self.raw.calls[2][5], seed)
        tup = ("RUN true",)
        self.client.code_interpreter.templates.update("my-py-extra", tup)
        self.assertIs(self.raw.calls[3][2], tup)

    def test_honest_subclasses_pass(self):
        class Commands(list):
            pass

        class Name(str):
            pass
        cmds, name = Commands(["RUN true"]), Name("my-py-extra")
        self.client.code_interpreter.templates.create(name, cmds, 2, 4096)
        self.assertIs(self.raw.calls[0][2], cmds)
        self.assertIs(self.raw.calls[0][1], name)

    def test_compiled_boxlint_policy_is_read(self):
        with boxlint.NetworkPolicy("filtered", ["pypi.org"], ["ALL_TRAFFIC"]) as np:
            self.client.agents.add_code_interpreter("prm", "t", network_policy=np)
        self.assertEqual(len(self.raw.calls), 1)

    def test_everything_else_is_forwarded(self):
        self.assertEqual(self.client.api_key, "k")
        self.assertIs(self.client.code_interpreter.templates.calls, self.raw.calls)
        self.client.code_interpreter.templates.get("x")
        self.client.agents.remove_code_interpreter("prm")
        self.assertEqual(self.raw.calls, [("get", "x"), ("remove", "prm")])
        self.assertIsInstance(self.client, self.sdk.BudClient)
        with self.client as c:
            self.assertIs(type(c), type(self.client))

    def test_not_mutated_idempotent_and_stateless(self):
        before = dict(vars(self.raw))
        sdk_before = dict(vars(self.sdk))
        self.assertIs(boxlint.guard(self.client), self.client)
        again = boxlint.guard(boxlint.guard(self.raw, on_warning=print))
        self.assertIsNot(again, self.client)
        seen = []
        twice = boxlint.guard(boxlint.guard(self.raw), on_warning=seen.append)
        twice.code_interpreter.templates.create(**dict(GOOD, commands=["RUN pip install x"]))
        self.assertEqual(len(seen), len(set(seen)), "each warning once: not checked twice")
        self.assertEqual(dict(vars(self.raw)), before)
        self.assertEqual(dict(vars(self.sdk)), sdk_before)
        self.assertIs(type(self.raw.code_interpreter.templates).create,
                      vars(type(self.raw.code_interpreter.templates))["create"])

    def test_warnings_go_to_warnings_warn(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.client.code_interpreter.templates.create(
                **dict(GOOD, commands=["RUN pip install requests"]))
        self.assertEqual(len(self.raw.calls), 1, "a warning does not stop the call")
        self.assertTrue(w)
        self.assertTrue(all(issubclass(x.category, boxlint.TemplateWarning) for x in w))
        self.assertIn("pip-no-cache-dir", [x.message.diagnostic.rule for x in w])
        self.assertEqual(w[0].filename, __file__, "the warning points at the caller")

    def test_warnings_go_to_the_callback(self):
        seen = []
        c = boxlint.guard(self.raw, on_warning=seen.append)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c.code_interpreter.templates.create(**dict(GOOD, commands=["RUN pip install x"]))
        self.assertIn("pip-no-cache-dir", [d.rule for d in seen])
        self.assertEqual(len(self.raw.calls), 1)

    def test_config(self):
        seen = []
        off = {"rules": {"pip-no-cache-dir": "off"}}
        path = os.path.join(tempfile.mkdtemp(), ".boxlint.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(off, f)
        for cfg in (off, boxlint.Config.from_dict(off), path):
            c = boxlint.guard(self.raw, cfg, on_warning=seen.append)
            c.code_interpreter.templates.create(**dict(GOOD, commands=["RUN pip install x"]))
        self.assertNotIn("pip-no-cache-dir", [d.rule for d in seen])
        self.assertRaises(TypeError, boxlint.guard, self.raw, 3)

    def test_threads(self):
        errors = []

        def work(i):
            try:
                for _ in range(20):
                    self.client.code_interpreter.templates.create(**GOOD)
                    try:
                        self.client.code_interpreter.templates.create(
                            **dict(GOOD, commands=["FROM x"]))
                    except boxlint.ValidationError:
                        pass
            except Exception as e:  # noqa: BLE001
                errors.append(e)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(self.raw.calls), 80)


class SameAsTheReader(GuardCase):
    """The guard's errors for a call are the Python reader's for the same call written with
    literals (rule and message), so that the two entrances say the same thing."""

    CALLS = [
        'client.code_interpreter.templates.create(name="a", commands=["FROM x"], cpu_count=2, '
        'memory_mb=4096, nmae=1)',
        'client.code_interpreter.templates.create(name=b"a", commands="RUN a", cpu_count=2, '
        'memory_mb=4096)',
        'client.code_interpreter.templates.create(name="a", commands=["RUN a", 3, b"x"], '
        'cpu_count=2, memory_mb=4096)',
        'client.code_interpreter.templates.update("my-py-extra", commands=["RUN a"], '
        'cpu_count=2)',
        'client.code_interpreter.templates.update(commands=["pip install x"])',
        'client.agents.add_code_interpreter("a", "t", 1, 1200, None, 6)',
        'client.agents.add_code_interpreter("a", template_id="t", network_policy={"type": '
        '"filtered", "allow_out": True, "deny_out": False})',
        'client.agents.add_code_interpreter("a", template_id="t", network_policy={"type": '
        '"open", "allow_out": ["pypi.org"]})',
        'client.agents.add_code_interpreter("a", template_id="t", version=0, '
        'network_policy=NetworkPolicy(type="filtered", allow_out=["bad..x"]))',
    ]

    def test_same_rules_and_messages(self):
        for call in self.CALLS:
            with self.subTest(call=call):
                src = f"from budai import BudClient, NetworkPolicy\nclient = BudClient()\n{call}\n"
                want = sorted((d.rule, d.message) for d in boxlint.check_python(src).errors)
                self.assertTrue(want)
                env = {"client": self.client, "NetworkPolicy": self.sdk.NetworkPolicy}
                with self.assertRaises(boxlint.ValidationError) as cm:
                    exec(call, env)
                got = sorted((e["type"], e["msg"]) for e in cm.exception.errors)
                self.assertEqual(got, want)
        self.assertEqual(self.raw.calls, [])


class Signatures(unittest.TestCase):
    """Arguments are bound by the wrapped method's own signature when it can be read."""

    def client(self, templates):
        calls = []

        class CI:
            pass

        class Client:
            code_interpreter = CI()
        Client.code_interpreter.templates = templates(calls)
        return boxlint.guard(Client()), calls

    def test_keyword_only_sdk_with_transport_options_and_defaults(self):
        class T:
            def __init__(self, calls):
                self.calls = calls

            def create(self, *, name, commands, cpu_count=2, memory_mb=4096, timeout=None):
                self.calls.append((name, commands, cpu_count, memory_mb, timeout))
        c, calls = self.client(T)
        c.code_interpreter.templates.create(name="a", commands=["RUN true"], timeout=5)
        self.assertEqual(calls, [("a", ["RUN true"], 2, 4096, 5)], "defaults fill the fields")
        with self.assertRaises(boxlint.ValidationError) as cm:
            c.code_interpreter.templates.create("a", ["RUN true"])
        self.assertEqual(cm.exception.errors[0]["msg"], "templates.create() takes 0 positional "
                         "arguments but 1 were given (the SDK raises TypeError)")
        self.assertEqual(len(calls), 1)

    def test_opaque_wrapper_falls_back_to_the_documented_signature(self):
        def opaque(f):
            def inner(*args, **kwargs):
                return f(*args, **kwargs)
            return inner

        class T:
            def __init__(self, calls):
                self.calls = calls

            @opaque
            def update(self, *args, **kwargs):
                self.calls.append((args, kwargs))
        c, calls = self.client(T)
        c.code_interpreter.templates.update("my-py-extra", ["RUN true"])
        self.assertEqual(calls, [(("my-py-extra", ["RUN true"]), {})])
        with self.assertRaises(boxlint.ValidationError) as cm:
            c.code_interpreter.templates.update("my-py-extra", comands=["RUN true"])
        self.assertEqual([e["type"] for e in cm.exception.errors],
                         ["unknown-argument", "missing-field"])
        self.assertEqual(cm.exception.errors[0]["ctx"]["hint"], 'did you mean "commands"?')
        self.assertEqual(len(calls), 1)

    def test_a_keyword_only_kwargs_would_take_is_reported(self):
        class T:
            def __init__(self, calls):
                self.calls = calls

            def create(self, name, commands, cpu_count, memory_mb, **extra):
                self.calls.append(extra)
        c, calls = self.client(T)
        with self.assertRaises(boxlint.ValidationError):
            c.code_interpreter.templates.create(**GOOD, gpu=1)
        self.assertEqual(calls, [])

    def test_no_unwrapping_to_the_unchecked_call(self):
        c = boxlint.guard(_stub_sdk().BudClient())
        create = c.code_interpreter.templates.create
        self.assertFalse(hasattr(create, "__wrapped__"))
        self.assertEqual(list(inspect.signature(create).parameters),
                         ["name", "commands", "cpu_count", "memory_mb"])


class Policy(GuardCase):
    def test_checked_constructor(self):
        NP = boxlint.guard_policy(self.sdk.NetworkPolicy)
        self.assertIs(boxlint.guard_policy(NP), NP)
        p = NP(type="filtered", allow_out=["pypi.org"], deny_out=["ALL_TRAFFIC"])
        self.assertIsInstance(p, self.sdk.NetworkPolicy)
        with self.assertRaises(boxlint.ValidationError) as cm:
            NP(type="open", allow_out=["pypi.org"])
        self.assertEqual([(e["type"], e["loc"]) for e in cm.exception.errors],
                         [("lists-not-allowed", ["body", "network_policy", "allow_out"])])
        with self.assertRaises(boxlint.ValidationError) as cm:
            NP(type="filtered", allow_out=True)
        self.assertEqual(cm.exception.errors[0]["msg"], "network_policy.allow_out must be a list "
                                                        "of strings")
        with self.assertRaises(boxlint.ValidationError) as cm:
            NP(tpye="open")
        self.assertEqual(cm.exception.errors[0]["ctx"]["hint"], 'did you mean "type"?')
        self.assertEqual(len(self.sdk.NetworkPolicy.made), 1, "only the good one was built")

    def test_unguarded_policy_is_checked_where_it_is_sent(self):
        np = self.sdk.NetworkPolicy(type="filtered", allow_out=[], deny_out=["x..y"])
        self.rejected(lambda: self.client.agents.add_code_interpreter("p", "t",
                                                                      network_policy=np),
                      ("invalid-policy-entry", ["body", "network_policy", "deny_out", 0]))


class Async(unittest.TestCase):
    def setUp(self):
        self.sdk = _stub_sdk()

    def test_async_client(self):
        async def main():
            raw = self.sdk.AsyncBudClient()
            async with boxlint.guard(raw) as client:
                create = client.code_interpreter.templates.create
                coro = create(**dict(GOOD, commands=["FROM x"]))
                self.assertTrue(asyncio.iscoroutine(coro))
                with self.assertRaises(boxlint.ValidationError):
                    await coro
                with self.assertRaises(boxlint.ValidationError):
                    await getattr(client.agents, "add_code_" + "interpreter")(
                        "p", "t", network_policy={"type": "filtered", "allow_out": True})
                self.assertEqual(raw.calls, [])
                cmds = list(GOOD["commands"])
                got = await create(**dict(GOOD, commands=cmds))
                self.assertEqual(got, ("template", GOOD["name"]))
                self.assertIs(raw.calls[0][2], cmds)
                await client.code_interpreter.templates.update("my-py-extra", ["RUN true"])
                seen = []
                c2 = boxlint.guard(raw, on_warning=seen.append)
                await c2.code_interpreter.templates.create(
                    **dict(GOOD, commands=["RUN pip install x"]))
                self.assertIn("pip-no-cache-dir", [d.rule for d in seen])
                self.assertEqual(len(raw.calls), 3)
        asyncio.run(main())


if __name__ == "__main__":
    unittest.main()
