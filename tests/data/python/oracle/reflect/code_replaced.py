# a function's __code__ replaced: what it returns is another function's
from budai import BudClient
client = BudClient(api_key="k")


def good():
    return ["RUN ok"]


def bad():
    return ["FROM x"]


good.__code__ = bad.__code__
client.code_interpreter.templates.create(name="a", commands=good(), cpu_count=2, memory_mb=4096)
client.code_interpreter.templates.create(name="b", commands=["RUN fine"], cpu_count=2, memory_mb=4096)
