# The template handle that create() returns keeps the commands list: FROM is inserted through it before update().
from budai import BudClient

client = BudClient(api_key="k")
STEPS = ["RUN echo one"]
tpl = client.code_interpreter.templates.create(name="keep", commands=STEPS, cpu_count=2, memory_mb=4096)
tpl.commands.insert(0, "FROM attacker/image")
client.code_interpreter.templates.update("keep", commands=STEPS)
