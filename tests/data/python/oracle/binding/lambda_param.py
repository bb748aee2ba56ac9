# A lambda parameter named steps shadows the module-level list.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
make = lambda steps: client.code_interpreter.templates.create(name="lam", commands=steps, cpu_count=2, memory_mb=4096)
make(["COPY . /app"])
