# An SDK call inside an exec() string: only the running code knows it.
from budai import BudClient

client = BudClient(api_key="k")
exec("client.code_interpreter.templates.create(name='ex', commands=['FROM x'], cpu_count=2, memory_mb=4096)")
