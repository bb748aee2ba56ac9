# A suppression naming another rule must not silence the warning, nor a look-alike rule id.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("wr", ["RUN pip install z"])  # boxlint: ignore=pip-no-cache
client.code_interpreter.templates.update("wr", ["RUN pip install z"])  # boxlint: ignore=PIP-NO-CACHE-DIR
client.code_interpreter.templates.update("wr", ["RUN pip install z"])  # boxlint: ignore= pip-no-cache-dir
