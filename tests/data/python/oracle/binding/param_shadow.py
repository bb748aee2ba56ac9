# A function parameter named like the module-level list shadows it inside the function.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]


def build(steps):
    return client.code_interpreter.templates.create(
        name="shadow", commands=steps, cpu_count=2, memory_mb=4096)


build(["FROM debian:12"])
