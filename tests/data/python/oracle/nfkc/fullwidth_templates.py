# The resource name in fullwidth letters: .ｔｅｍｐｌａｔｅｓ is .templates.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.ｔｅｍｐｌａｔｅｓ.update("fwt", ["ADD a /b"])
