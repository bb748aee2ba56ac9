"""A stub of the platform SDK for tests/oracle/python_oracle_test.py: the signatures of the real one
(so that CPython itself raises TypeError on a bad call), no network. Each call of
templates.create/.update, agents.add_code_interpreter and each NetworkPolicy(...) appends one
JSON line to the file named by $BUDAI_ORACLE_OUT: its kind, the source span of the call
expression in the case file ($BUDAI_ORACLE_CASE) that made it, and its bound arguments (or that
binding them raised TypeError)."""
import functools, inspect, json, os, sys

__all__ = ["BudClient", "AsyncBudClient", "NetworkPolicy"]

_OUT = os.environ.get("BUDAI_ORACLE_OUT")
_CASE = os.path.realpath(os.environ.get("BUDAI_ORACLE_CASE", sys.argv[0] if sys.argv else ""))
_seq = [0]
_keep = []  # every NetworkPolicy made, so that no id is reused


class Unrepresentable(Exception):
    pass


def _json(v, policies):
    """The value as the SDK would send it in JSON; a marker for what JSON cannot hold."""
    if v is None or isinstance(v, (bool, str)):
        return str(v) if isinstance(v, str) and type(v) is not str else v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return {"$unrepresentable": "float", "repr": repr(v)} if v != v or v in (
            float("inf"), float("-inf")) else float(v)
    if isinstance(v, (list, tuple)):
        return [_json(x, policies) for x in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            return {"$unrepresentable": "dict with non-string keys", "repr": repr(v)[:200]}
        return {str(k): _json(x, policies) for k, x in v.items()}
    if isinstance(v, NetworkPolicy):
        policies.append(v._oracle_id)
        return {"type": _json(v.type, policies), "allow_out": _json(v.allow_out, policies),
                "deny_out": _json(v.deny_out, policies)}
    return {"$unrepresentable": type(v).__name__, "repr": repr(v)[:200]}


def _span():
    """(lineno, end_lineno, col_offset, end_col_offset) of the call being executed in the case
    file: the innermost frame of the case file (an exec() string or functools.partial report
    the expression of the case file that led to them)."""
    f = sys._getframe(2)
    while f is not None:
        if os.path.realpath(f.f_code.co_filename) == _CASE:
            p = inspect.getframeinfo(f, context=0).positions
            return [p.lineno, p.end_lineno, p.col_offset, p.end_col_offset]
        f = f.f_back
    return None


def _emit(rec):
    if not _OUT:
        return
    _seq[0] += 1
    rec["seq"] = _seq[0]
    with open(_OUT, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec) + "\n")


def _recorded(kind):
    """Record each call of the decorated function (its signature is the SDK's)."""
    def deco(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            span = _span()
            try:
                b = sig.bind(*args, **kwargs)
            except TypeError as e:
                _emit({"kind": kind, "span": span, "raised": "TypeError", "message": str(e)})
                raise
            pol = []
            given = {k: _json(v, pol) for k, v in b.arguments.items() if k != "self"}
            b.apply_defaults()
            full = {k: _json(v, []) for k, v in b.arguments.items() if k != "self"}
            rec = {"kind": kind, "span": span, "given": given, "all": full, "policies": pol}
            if kind == "policy":
                rec["id"] = id(args[0])
            _emit(rec)
            return fn(*args, **kwargs)
        return wrapper
    return deco


class NetworkPolicy:
    @_recorded("policy")
    def __init__(self, type="disabled", allow_out=[], deny_out=[]):
        self.type, self.allow_out, self.deny_out = type, allow_out, deny_out
        self._oracle_id = id(self)
        _keep.append(self)

    def __repr__(self):
        return "NetworkPolicy(type=%r, allow_out=%r, deny_out=%r)" % (
            self.type, self.allow_out, self.deny_out)


class Template:
    def __init__(self, name, commands=None):
        self.id = self.name = name
        self.commands = commands
        self.status = "ready"

    def wait_until_ready(self, timeout=None):
        return self

    def refresh(self):
        return self


class Binding:
    def __init__(self, agent_id, template_id, network_policy=None):
        self.id = "bnd_" + str(agent_id)
        self.agent_id, self.template_id, self.network_policy = agent_id, template_id, network_policy


class _Templates:
    @_recorded("create")
    def create(self, name, commands, cpu_count, memory_mb):
        return Template(name, commands)

    @_recorded("update")
    def update(self, template_id, commands):
        return Template(template_id, commands)

    def get(self, template_id):
        return Template(template_id)

    def delete(self, template_id):
        return None

    def list(self):
        return []


class _CodeInterpreter:
    def __init__(self, templates):
        self.templates = templates


class _Agents:
    @_recorded("bind")
    def add_code_interpreter(self, agent_id, template_id, version=1, lifespan_seconds=1200,
                             network_policy=None):
        return Binding(agent_id, template_id, network_policy)

    def get_code_interpreter(self, agent_id):
        return Binding(agent_id, "python-4g")

    def remove_code_interpreter(self, agent_id):
        return None


class BudClient:
    def __init__(self, api_key=None, base_url=None, timeout=None):
        self.api_key = api_key
        self.code_interpreter = _CodeInterpreter(_Templates())
        self.agents = _Agents()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


class _Done:
    """What an async method returns: awaitable once, giving the result."""
    def __init__(self, value):
        self.value = value

    def __await__(self):
        return self.value
        yield  # a generator


class _AsyncTemplate(Template):
    def wait_until_ready(self, timeout=None):
        return _Done(self)

    def refresh(self):
        return _Done(self)


class _AsyncTemplates:
    @_recorded("create")
    def create(self, name, commands, cpu_count, memory_mb):
        return _Done(_AsyncTemplate(name, commands))

    @_recorded("update")
    def update(self, template_id, commands):
        return _Done(_AsyncTemplate(template_id, commands))

    def get(self, template_id):
        return _Done(_AsyncTemplate(template_id))

    def delete(self, template_id):
        return _Done(None)


class _AsyncAgents:
    @_recorded("bind")
    def add_code_interpreter(self, agent_id, template_id, version=1, lifespan_seconds=1200,
                             network_policy=None):
        return _Done(Binding(agent_id, template_id, network_policy))

    def get_code_interpreter(self, agent_id):
        return _Done(Binding(agent_id, "python-4g"))

    def remove_code_interpreter(self, agent_id):
        return _Done(None)


class AsyncBudClient:
    def __init__(self, api_key=None, base_url=None, timeout=None):
        self.api_key = api_key
        self.code_interpreter = _CodeInterpreter(_AsyncTemplates())
        self.agents = _AsyncAgents()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def close(self):
        pass
