# latin-1: non-ASCII text in strings, a warned pip install and a denied COPY must be found.
# -*- coding: latin-1 -*-
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("latin", ["RUN echo café crème", "RUN pip install x", "COPY é /é"])
