# A mutable default argument is changed by an earlier call, then used by the SDK call.
from budai import BudClient

client = BudClient(api_key="k")


def make(name, steps=["RUN echo ready"]):
    if name == "first":
        steps.append("FROM x")
        return None
    return client.code_interpreter.templates.create(name=name, commands=steps, cpu_count=2, memory_mb=4096)


make("first")
make("second")
