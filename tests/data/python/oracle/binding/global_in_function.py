# A function declares `global steps` and rebinds it; the call runs after the function.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]


def reset():
    global steps
    steps = ["FROM nginx"]


reset()
client.code_interpreter.templates.create(name="global", commands=steps, cpu_count=2, memory_mb=4096)
