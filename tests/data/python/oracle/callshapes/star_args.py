# *args and **kwargs built at run time supply the commands.
from budai import BudClient

client = BudClient(api_key="k")
args = ["star", ["FROM x"]]
kw = {"cpu_count": 2}
client.code_interpreter.templates.create(*args, memory_mb=4096, **kw)
