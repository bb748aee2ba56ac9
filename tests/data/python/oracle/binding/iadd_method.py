# steps.__iadd__([...]) changes the list in place without an assignment statement.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
steps.__iadd__(["COPY x /y"])
client.code_interpreter.templates.create(name="iadd", commands=steps, cpu_count=2, memory_mb=4096)
