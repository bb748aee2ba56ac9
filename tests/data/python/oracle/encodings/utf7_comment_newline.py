# utf-7: +AAo- in a comment is a newline to CPython, so the code after it runs.
# -*- coding: utf-7 -*-
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
# harmless note+AAo-steps.append("FROM ubuntu")
client.code_interpreter.templates.create(name="u7", commands=steps, cpu_count=2, memory_mb=4096)
