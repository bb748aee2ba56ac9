# cp1252 has no line break bytes beyond ASCII; latin-1's 0x85 (NEL) is not a Python line break either.
# coding: latin-1
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("nel", ["RUN echo a…FROM x"])
