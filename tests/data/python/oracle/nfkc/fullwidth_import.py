# The SDK imported with a fullwidth module name: from ｂｕｄａｉ import BudClient.
from ｂｕｄａｉ import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("fwi", ["FROM x"])
