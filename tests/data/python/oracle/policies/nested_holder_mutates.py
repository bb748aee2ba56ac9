# nested policy list held by two module names, one mutates
from budai import BudClient, NetworkPolicy
client = BudClient(api_key="k")
A = ["pypi.org"]
P = {"type": "filtered", "allow_out": A, "deny_out": ["ALL_TRAFFIC"]}
Q = [P]
Q[0]["deny_out"].clear()
client.agents.add_code_interpreter("prm", "python-4g", network_policy=P)
