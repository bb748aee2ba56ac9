# In a class body, `steps` names the class's own list, not the module-level one.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]


class Build:
    steps = ["COPY requirements.txt /"]
    client.code_interpreter.templates.create(name="klass", commands=steps, cpu_count=2, memory_mb=4096)
