# A list bound once, passed as allow_out, then an invalid entry appended before the binding.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
ALLOW = ["pypi.org"]
P = NetworkPolicy(type="filtered", allow_out=ALLOW, deny_out=["ALL_TRAFFIC"])  # oracle: not-static-at=6
ALLOW.append("300.1.1.1")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=P)
