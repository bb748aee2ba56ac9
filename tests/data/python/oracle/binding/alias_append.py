# An alias of a module-level list appends COPY to it before the call (other = steps).
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
other = steps
other.append("COPY app.py /app/")
client.code_interpreter.templates.create(name="alias", commands=steps, cpu_count=2, memory_mb=4096)
