# A for loop's target rebinds steps; the loop variable keeps its last value after the loop.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
for steps in (["RUN echo a"], ["FROM busybox"]):
    pass
client.code_interpreter.templates.create(name="for", commands=steps, cpu_count=2, memory_mb=4096)
