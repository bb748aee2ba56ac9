# network_policy= on templates.create is not a parameter: the SDK raises TypeError.
from budai import BudClient

client = BudClient(api_key="k")
try:
    client.code_interpreter.templates.create(
        name="np", commands=["RUN echo hi"], cpu_count=2, memory_mb=4096,
        network_policy={"type": "disabled"},
    )
except TypeError:
    pass
