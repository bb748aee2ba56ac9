# functools.partial fixes some arguments; the call of the partial gives the rest (with CMD).
import functools

from budai import BudClient

client = BudClient(api_key="k")
make = functools.partial(client.code_interpreter.templates.create, name="partial", cpu_count=2)  # oracle: not-static-at=7
make(commands=["CMD python3"], memory_mb=4096)
