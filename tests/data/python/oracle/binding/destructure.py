# A destructuring assignment `steps, x = ...` rebinds the module-level list.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
steps, x = ["CMD bash"], 1
client.code_interpreter.templates.create(name="destructure", commands=steps, cpu_count=2, memory_mb=4096)
