# A valid file (no false alarm): a list bound once, used by a create and an update, unchanged.
from budai import BudClient

client = BudClient(api_key="k")
STEPS = ["RUN pip install --no-cache-dir httpx", "RUN pip install requests"]
client.code_interpreter.templates.create(name="shared", commands=STEPS, cpu_count=2, memory_mb=4096)
client.code_interpreter.templates.update("shared", STEPS)
client.agents.add_code_interpreter("prm_1", "shared", network_policy={"type": "disabled"})
