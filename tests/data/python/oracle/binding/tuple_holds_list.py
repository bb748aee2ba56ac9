# list built by module-level literal, aliased into a tuple then mutated
from budai import BudClient
client = BudClient(api_key="k")
S = ["RUN a"]
T = (S, 1)
T[0].append("FROM z")
client.code_interpreter.templates.create(name="a", commands=S, cpu_count=2, memory_mb=4096)
