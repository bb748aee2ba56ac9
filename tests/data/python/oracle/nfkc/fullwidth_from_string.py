# A fullwidth ＦＲＯＭ inside a string stays fullwidth (strings are not normalized).
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("fws", ["ＦＲＯＭ x"])
