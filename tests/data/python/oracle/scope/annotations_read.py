# module-level annotations read back as __annotations__: never silent
from budai import BudClient
x: "FROM nvidia/cuda:12.4.0" = 1
BudClient(api_key="k").code_interpreter.templates.create(name="a", commands=list(__annotations__.values()), cpu_count=2, memory_mb=4096)
