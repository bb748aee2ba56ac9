# `look = getattr`: the alias of a reflection builtin is the builtin itself: every call not-static
from budai import BudClient
look = getattr
client = BudClient(api_key="k")
look(client.code_interpreter.templates, "create")(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
client.code_interpreter.templates.create(name="a", commands=["RUN ok"], cpu_count=2, memory_mb=4096)
