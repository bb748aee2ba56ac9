# SDK result handle keeps list; mutated via refresh() chain
from budai import BudClient
client = BudClient(api_key="k")
S = ["RUN a"]
t = client.code_interpreter.templates.create(name="a", commands=S, cpu_count=2, memory_mb=4096)
t.refresh().commands.append("CMD x")
client.code_interpreter.templates.update("a", commands=S)
