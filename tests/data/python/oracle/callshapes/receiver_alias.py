# The templates resource through an alias: t = client.code_interpreter.templates; t.create(...).
from budai import BudClient

client = BudClient(api_key="k")
t = client.code_interpreter.templates  # oracle: not-static-at=5
t.create(name="alias", commands=["FROM ubuntu"], cpu_count=2, memory_mb=4096)
