# the bound method create kept in a name and called
from budai import BudClient
client = BudClient(api_key="k")
create = client.code_interpreter.templates.create
create(name="a", commands=["FROM nvidia/cuda:12.4.0"], cpu_count=2, memory_mb=4096)
