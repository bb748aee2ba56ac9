# cpu_count=True is an int to Python but true in JSON; version=2.0 a float.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create(name="booly", commands=["RUN echo hi"], cpu_count=True, memory_mb=4096)
client.agents.add_code_interpreter("prm_1", "booly", version=2.0)
