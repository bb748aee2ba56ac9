# hz: an identifier ~{0#~} whose HZ bytes hold '#'; the statement it starts mutates the list.
# coding: hz
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
~{0#~} = steps.append("ENTRYPOINT sh")
client.code_interpreter.templates.create(name="hzid", commands=steps, cpu_count=2, memory_mb=4096)
