# A NetworkPolicy keeps the list it was given: an invalid entry appended through it reaches a later policy built from the same list.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
ALLOW = ["pypi.org"]
FIRST = NetworkPolicy(type="filtered", allow_out=ALLOW, deny_out=["ALL_TRAFFIC"])
FIRST.allow_out.append("300.1.1.1")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=NetworkPolicy(type="filtered", allow_out=ALLOW, deny_out=["ALL_TRAFFIC"]))
