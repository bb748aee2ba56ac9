# an alias bound twice (the second time to something else) is not followed: not-static
from budai import BudClient
client = BudClient(api_key="k")
ci = client.code_interpreter
if client:
    ci = client.code_interpreter
ci = ci
ci.templates.create(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
