# ignore=not-static must not silence not-static (an f-string command hides a FROM).
from budai import BudClient

client = BudClient(api_key="k")
base = "FROM"
client.code_interpreter.templates.create(name="ns", commands=[f"{base} x"], cpu_count=2, memory_mb=4096)  # boxlint: ignore=not-static
