# All four arguments of create given positionally, and update's two positionally.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create("pos", ["RUN pip install x", "COPY a b"], 2, 4096)
client.code_interpreter.templates.update("pos", ["RUN apt-get update"])
