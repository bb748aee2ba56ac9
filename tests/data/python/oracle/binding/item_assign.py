# An item assignment steps[0] = ... and a slice assignment change a list bound once.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready", "RUN echo two"]
steps[0] = "FROM ubuntu"
steps[1:] = ["ENTRYPOINT /bin/sh"]
client.code_interpreter.templates.create(name="item", commands=steps, cpu_count=2, memory_mb=4096)
