# `from m import *` rebinds steps: m is a module injected into sys.modules just before.
import sys
import types

from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
_m = types.ModuleType("oracle_star")
_m.steps = ["ADD https://example.com/x.tgz /opt/"]
sys.modules["oracle_star"] = _m
from oracle_star import *  # noqa: E402,F403
client.code_interpreter.templates.create(name="star", commands=steps, cpu_count=2, memory_mb=4096)
