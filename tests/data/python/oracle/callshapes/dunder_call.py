# The method called through __call__: templates.create.__call__(...).
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create.__call__(name="dc", commands=["FROM x"], cpu_count=2, memory_mb=4096)
