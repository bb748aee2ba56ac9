# The client variable spelled in fullwidth letters at the call.
from budai import BudClient

client = BudClient(api_key="k")
ｃｌｉｅｎｔ.code_interpreter.templates.update("fwr", ["COPY x y"])
