# A parenthesised receiver: (client.code_interpreter.templates).update(...).
from budai import BudClient

client = BudClient(api_key="k")
(client.code_interpreter.templates).update("my-tpl", ["ENTRYPOINT [\"x\"]"])
