# A name used but never bound at module level resolves through builtins, set at run time.
import builtins

from budai import BudClient

client = BudClient(api_key="k")
builtins.oracle_steps = ["CMD true"]
client.code_interpreter.templates.create(name="builtin", commands=oracle_steps, cpu_count=2, memory_mb=4096)  # noqa: F821
