# euc-jp: Japanese text in a command (no byte is ASCII) and a denied ADD in the same list.
# -*- coding: euc-jp -*-
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("eucjp", ["RUN echo こんにちは", "ADD x.tar /"])
