# A decorator returns a list, so `def steps` binds steps to a list with FROM.
from budai import BudClient

client = BudClient(api_key="k")


def as_steps(fn):
    return ["FROM " + fn.__name__]


@as_steps
def steps():
    pass


client.code_interpreter.templates.create(name="deco", commands=steps, cpu_count=2, memory_mb=4096)
