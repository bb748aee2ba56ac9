# A valid file with non-ASCII identifiers (no false alarm): café = the commands.
from budai import BudClient

client = BudClient(api_key="k")
café = ["RUN pip install --no-cache-dir x"]
client.code_interpreter.templates.create(name="ok", commands=café, cpu_count=2, memory_mb=4096)
