# b"RUN x" where a str is expected: the SDK passes it through, the platform rejects it.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create(name="bytes", commands=[b"RUN echo hi"], cpu_count=2, memory_mb=4096)
