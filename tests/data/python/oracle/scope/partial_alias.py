# functools.partial of create bound to a name: the partial's arguments first, the call's keyword wins
from functools import partial
from budai import BudClient
client = BudClient(api_key="k")
create = client.code_interpreter.templates.create
p = partial(create, name="Bad Name", cpu_count=2)
p(commands=["FROM x"], memory_mb=4096)
p(name="good", commands=["RUN a"], memory_mb=4096)
