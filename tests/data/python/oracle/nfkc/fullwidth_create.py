# The method name in fullwidth letters: NFKC makes it create.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.ｃｒｅａｔｅ(name="fw", commands=["FROM x"], cpu_count=2, memory_mb=4096)
