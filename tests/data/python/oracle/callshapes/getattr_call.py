# getattr(client.code_interpreter.templates, "create")(...): the method named by a string.
from budai import BudClient

client = BudClient(api_key="k")
getattr(client.code_interpreter.templates, "create")(name="ga", commands=["COPY . /"], cpu_count=2, memory_mb=4096)
