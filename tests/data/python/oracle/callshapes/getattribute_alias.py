# getattr on client via __getattribute__ stored then used
from budai import BudClient
client = BudClient(api_key="k")
ci = client.__getattribute__("code_interpreter")
ci.templates.create(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
