# A cookie on line 3 is ignored by CPython: +AAo- stays five characters, no FROM line.

# coding: utf-7
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("l3", ["""RUN echo hi+AAo-FROM x""", "RUN pip install y"])
