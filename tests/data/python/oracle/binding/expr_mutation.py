# A mutation hidden inside an expression statement: [steps.append("FROM x")].
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
[steps.append("FROM scratch")]
client.code_interpreter.templates.create(name="expr", commands=steps, cpu_count=2, memory_mb=4096)
