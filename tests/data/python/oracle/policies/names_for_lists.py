# Names bound once for both lists and for the type (a valid policy: no false alarm).
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
T = "filtered"
A = ["pypi.org", "*.pypi.org"]
D = ["ALL_TRAFFIC"]
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=NetworkPolicy(type=T, allow_out=A, deny_out=D))
