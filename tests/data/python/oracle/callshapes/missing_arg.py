# create without memory_mb: the SDK raises TypeError; boxlint must report an error there.
from budai import BudClient

client = BudClient(api_key="k")
try:
    client.code_interpreter.templates.create(name="miss", commands=["RUN echo hi"], cpu_count=2)
except TypeError:
    pass
