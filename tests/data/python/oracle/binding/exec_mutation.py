# A mutation inside an exec() string: boxlint cannot see the code that changes the list.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
exec("steps.append('CMD [\"sh\"]')")
client.code_interpreter.templates.create(name="execmut", commands=steps, cpu_count=2, memory_mb=4096)
