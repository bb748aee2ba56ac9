# A list mutated through its fullwidth look-alike name ｓｔｅｐｓ (the same variable).
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
ｓｔｅｐｓ.append("CMD sleep 1")
client.code_interpreter.templates.create(name="look", commands=steps, cpu_count=2, memory_mb=4096)
