# One policy object reused by two bindings; its lists change between them.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
P = NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=["ALL_TRAFFIC"])
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=P)
P.allow_out.append("*")
client.agents.add_code_interpreter("prm_2", "python-4g", network_policy=P)
