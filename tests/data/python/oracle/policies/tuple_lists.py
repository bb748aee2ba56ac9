# Lists given as tuples (the SDK sends arrays) and a dict policy with a None list.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy(type="filtered", allow_out=("pypi.org",), deny_out=("ALL_TRAFFIC",))
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy={"type": "disabled", "allow_out": None})
