# A NetworkPolicy whose type attribute is set after construction, before the binding.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
P = NetworkPolicy(type="filtered", allow_out=["10.0.0.1"], deny_out=["ALL_TRAFFIC"])
P.type = "disabled"
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=P)
