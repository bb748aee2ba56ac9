# A comprehension variable named steps shadows the module-level list inside the comprehension.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
[client.code_interpreter.templates.create(name="comp", commands=steps, cpu_count=2, memory_mb=4096)
 for steps in [["CMD sleep infinity"]]]
