# len.__self__ is the builtins module: its exec runs text that changes the commands
from budai import BudClient
client = BudClient(api_key="k")
C = ["RUN ok"]
len.__self__.exec("C[0] = 'FROM x'")
client.code_interpreter.templates.create(name="a", commands=C, cpu_count=2, memory_mb=4096)
