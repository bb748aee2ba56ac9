# A call in a loop and in a comprehension, every execution with the same literal values.
from budai import BudClient

client = BudClient(api_key="k")
for _ in range(3):
    client.code_interpreter.templates.update("loop", ["RUN pip install x"])
[client.code_interpreter.templates.update("loop", ["FROM x"]) for _ in range(2)]
