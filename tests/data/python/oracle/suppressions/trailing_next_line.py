# A trailing comment meant for one call must not silence the next call's finding on the next line.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("one", ["RUN pip install a"])  # boxlint: ignore=pip-no-cache-dir
client.code_interpreter.templates.update("two", ["RUN pip install b"])
