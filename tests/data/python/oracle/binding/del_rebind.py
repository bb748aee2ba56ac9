# `del steps` and a later re-binding: the name is bound twice.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
del steps
steps = ["ADD x.tar /"]
client.code_interpreter.templates.create(name="del", commands=steps, cpu_count=2, memory_mb=4096)
