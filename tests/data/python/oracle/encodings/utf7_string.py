# utf-7: +AAo- inside a triple-quoted command is a newline, putting FROM on a line of its own.
# coding: utf-7
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("u7s", ["""RUN echo hi+AAo-FROM x"""])
