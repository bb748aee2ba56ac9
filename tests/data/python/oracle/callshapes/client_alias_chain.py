# The client under other names: c2 = client; ci = c2.code_interpreter; ci.templates.create(...).
from budai import BudClient

client = BudClient(api_key="k")
c2 = client
ci = c2.code_interpreter  # oracle: not-static-at=6
ci.templates.create(name="chain", commands=["FROM alpine"], cpu_count=2, memory_mb=4096)
