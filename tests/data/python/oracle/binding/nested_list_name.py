# A name bound once to a list that holds another name, and that inner list mutated in place.
from budai import BudClient

client = BudClient(api_key="k")
first = "RUN echo ready"
inner = [first]
steps = inner
inner.extend(["FROM x"])
client.code_interpreter.templates.create(name="nested", commands=steps, cpu_count=2, memory_mb=4096)
