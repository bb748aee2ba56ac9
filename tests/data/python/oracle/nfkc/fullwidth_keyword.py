# A keyword argument in fullwidth letters: ｃｏｍｍａｎｄｓ= is commands=.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create(name="fwkw", ｃｏｍｍａｎｄｓ=["COPY a b"], cpu_count=2, memory_mb=4096)
