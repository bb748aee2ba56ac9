# client.code_interpreter bound to a name, its templates' create called through it: checked exactly
from budai import BudClient
client = BudClient(api_key="k")
ci = client.code_interpreter
ci.templates.create(name="a", commands=["FROM nvidia/cuda:12.4.0"], cpu_count=2, memory_mb=4096)
