# client.code_interpreter.templates bound to a name, create and update called through it
from budai import BudClient
client = BudClient(api_key="k")
templates = client.code_interpreter.templates
templates.create(name="Bad Name", commands=["RUN a"], cpu_count=2, memory_mb=4096)
templates.update("tpl", commands=["FROM x"])
