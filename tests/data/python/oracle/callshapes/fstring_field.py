# An SDK call inside an f-string replacement field is executed when the f-string is built.
from budai import BudClient

client = BudClient(api_key="k")
msg = f"made {client.code_interpreter.templates.create(name='fs', commands=['ADD x /'], cpu_count=2, memory_mb=4096).id}"
print(msg)
