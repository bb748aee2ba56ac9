# update with keywords template_id= and commands= (valid SDK usage) and a denied instruction.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update(template_id="kw-upd", commands=["CMD [\"bash\"]"])
