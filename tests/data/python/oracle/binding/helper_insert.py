# A list bound once at module level, then changed by a helper that inserts FROM before the call.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN apt-get install -y curl"]


def prepare():
    steps.insert(0, "FROM ubuntu:22.04")


prepare()
client.code_interpreter.templates.create(
    name="helper-insert",
    commands=steps,
    cpu_count=2,
    memory_mb=4096,
)
