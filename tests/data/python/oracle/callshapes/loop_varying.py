# A call in a loop whose commands come from the loop variable: each execution differs.
from budai import BudClient

client = BudClient(api_key="k")
for cmd in ["RUN echo a", "ENTRYPOINT sh"]:
    client.code_interpreter.templates.update("vary", [cmd])
