# big5: a character whose second byte is 0x5C; CPython decodes the command to two lines, the second one COPY.
# coding: big5
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("big5", ["RUN echo 許\nCOPY a b"])
