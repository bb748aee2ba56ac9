# A backslash-continued statement: the comment's line is the continuation's, not the call's first.
from budai import BudClient

client = BudClient(api_key="k")
tpl = \
    client.code_interpreter.templates.update("bs", ["RUN pip install q"])  # boxlint: ignore=pip-no-cache-dir
client.code_interpreter.templates.update("bs2", ["RUN sudo ls"])
