# A standalone comment two lines above (a blank between) must not reach the call.
from budai import BudClient

client = BudClient(api_key="k")
# boxlint: ignore=sudo-usage

client.code_interpreter.templates.update("gap", ["RUN sudo echo hi"])
