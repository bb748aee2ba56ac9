# Math bold letters in the resource name: client.𝐚𝐠𝐞𝐧𝐭𝐬 is client.agents.
from budai import BudClient

client = BudClient(api_key="k")
client.𝐚𝐠𝐞𝐧𝐭𝐬.add_code_interpreter("prm_1", "python-4g", network_policy={"type": "open", "allow_out": ["1.2.3.4"]})
