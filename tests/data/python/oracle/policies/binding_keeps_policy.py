# a binding keeps the policy dict: mutated through binding.network_policy
from budai import BudClient
client = BudClient(api_key="k")
P = {"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}
b = client.agents.add_code_interpreter("prm", "python-4g", network_policy=P)
b.network_policy["allow_out"].append("300.1.1.1")
client.agents.add_code_interpreter("prm", "python-4g", network_policy=P)
