# Valid: a name passed to two SDK calls whose results are discarded: both calls are checked exactly, no false alarm.
from budai import BudClient
client = BudClient(api_key="k")
S = ["RUN pip install --no-cache-dir httpx"]
client.code_interpreter.templates.create(name="a", commands=S, cpu_count=2, memory_mb=4096)
client.code_interpreter.templates.update("a", commands=S)
