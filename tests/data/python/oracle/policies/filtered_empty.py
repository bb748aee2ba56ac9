# A filtered policy with empty lists allows everything (a warning), given through the binding.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=NetworkPolicy(type="filtered"))
