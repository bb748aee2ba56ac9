# operator.attrgetter imported under another name reaches create by its text
from operator import attrgetter as ag
from budai import BudClient
client = BudClient(api_key="k")
ag("code_interpreter.templates.create")(client)(name="a", commands=["FROM x"], cpu_count=2, memory_mb=4096)
client.code_interpreter.templates.create(name="b", commands=["RUN ok"], cpu_count=2, memory_mb=4096)
