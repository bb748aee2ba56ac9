# A superscript letter is its letter under NFKC: stepsⁱ = ... rebinds stepsi.
from budai import BudClient

client = BudClient(api_key="k")
stepsi = ["RUN echo ready"]
stepsⁱ = ["FROM busybox"]
client.code_interpreter.templates.create(name="sup", commands=stepsi, cpu_count=2, memory_mb=4096)
