# A walrus inside a condition rebinds steps.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
if (steps := ["ENTRYPOINT sh"]):
    pass
client.code_interpreter.templates.create(name="walrus", commands=steps, cpu_count=2, memory_mb=4096)
