# A `match` capture pattern rebinds steps at module level.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
match ["FROM python:3.11"]:
    case steps:
        pass
client.code_interpreter.templates.create(name="match", commands=steps, cpu_count=2, memory_mb=4096)
