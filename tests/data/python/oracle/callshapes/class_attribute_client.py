# call through a class attribute alias
from budai import BudClient
client = BudClient(api_key="k")
class K:
    api = client
K.api.code_interpreter.templates.create(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
