# ignore= of an error rule id does nothing: the FROM stays reported.
from budai import BudClient

client = BudClient(api_key="k")
# boxlint: ignore=denied-instruction
client.code_interpreter.templates.update("err", ["FROM x"])
client.code_interpreter.templates.update("err", ["COPY a b"])  # boxlint: ignore=denied-instruction
