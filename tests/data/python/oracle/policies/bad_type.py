# An unknown policy type, and a type given as a number.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy(type="closed")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy={"type": 3})
