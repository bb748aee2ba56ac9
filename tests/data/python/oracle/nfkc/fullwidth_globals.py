# globals() called through a fullwidth name rebinds steps.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
ｇｌｏｂａｌｓ()["steps"] = ["ADD x /"]
client.code_interpreter.templates.create(name="fg", commands=steps, cpu_count=2, memory_mb=4096)
