# decorator applies a function that mutates a module list
from budai import BudClient
client = BudClient(api_key="k")
S = ["RUN a"]
def deco(f):
    f(S)
    return f
@deco
def add(lst):
    lst.append("FROM q")
client.code_interpreter.templates.create(name="a", commands=S, cpu_count=2, memory_mb=4096)
