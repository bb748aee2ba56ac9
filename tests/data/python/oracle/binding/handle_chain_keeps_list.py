# wait_until_ready() returns the handle itself: its commands (the same list) gain CMD before the next update.
from budai import BudClient

client = BudClient(api_key="k")
STEPS = ["RUN echo one"]
tpl = client.code_interpreter.templates.create(name="chain", commands=STEPS, cpu_count=2, memory_mb=4096)
tpl.wait_until_ready().commands.append("CMD python3")
client.code_interpreter.templates.update("chain", commands=STEPS)
