# A one-line `if c: steps += [...]` adds ENTRYPOINT to a list bound once.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
c = len(steps) == 1
if c: steps += ['ENTRYPOINT ["python3"]']
client.code_interpreter.templates.create(name="oneline", commands=steps, cpu_count=2, memory_mb=4096)
