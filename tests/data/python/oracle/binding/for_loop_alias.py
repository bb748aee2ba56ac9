# list mutated through a for loop alias
from budai import BudClient
client = BudClient(api_key="k")
S = ["RUN a"]
for x in [S]:
    x.append("FROM y")
client.code_interpreter.templates.create(name="a", commands=S, cpu_count=2, memory_mb=4096)
