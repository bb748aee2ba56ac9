# The module's namespace changed through globals()["steps"], never spelled as an assignment.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
globals()["steps"] = ["FROM alpine"]
client.code_interpreter.templates.create(name="globals", commands=steps, cpu_count=2, memory_mb=4096)
