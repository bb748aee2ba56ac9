# NetworkPolicy imported with a math italic N: it is budai's NetworkPolicy.
from budai import BudClient, 𝑁etworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=𝑁etworkPolicy(type="filtered", allow_out=["bad host!"]))
