# A "# boxlint: ignore=" inside a string literal is not a comment and silences nothing.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("str", ["RUN pip install x", "# boxlint: ignore=pip-no-cache-dir"])
