# timeit.timeit runs its text: here it replaces the commands before the call
import timeit
from budai import BudClient
client = BudClient(api_key="k")
C = ["RUN ok"]
timeit.timeit("C[0] = 'FROM x'", globals=globals(), number=1)
client.code_interpreter.templates.create(name="a", commands=C, cpu_count=2, memory_mb=4096)
