# builtins.setattr on the client by a computed name
import builtins
from budai import BudClient
client = BudClient(api_key="k")
t = client.code_interpreter.templates
builtins.setattr(t, "make", t.create)
t.make(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
