# functools.partial of the method called at once
import functools
from budai import BudClient
client = BudClient(api_key="k")
functools.partial(client.code_interpreter.templates.create, name="a", cpu_count=2)(commands=["FROM x"], memory_mb=4096)
