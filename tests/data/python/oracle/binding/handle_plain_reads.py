# Valid: the handle is only waited on and read for its id; the list it keeps is unchanged, so both calls are checked exactly.
from budai import BudClient

client = BudClient(api_key="k")
STEPS = ["RUN pip install httpx", "RUN apt-get install curl"]
tpl = client.code_interpreter.templates.create(name="plain", commands=STEPS, cpu_count=2, memory_mb=4096)
tpl.wait_until_ready(timeout=600)
print(tpl.id, tpl.status)
client.code_interpreter.templates.update(tpl.id, commands=STEPS)
