# `with ... as steps` binds steps to the context manager's value.
import contextlib

from budai import BudClient

client = BudClient(api_key="k")
with contextlib.nullcontext(["COPY a b"]) as steps:
    client.code_interpreter.templates.create(name="with", commands=steps, cpu_count=2, memory_mb=4096)
