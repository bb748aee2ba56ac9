# NetworkPolicy imported under another name (NP) and passed to a binding.
from budai import BudClient
from budai import NetworkPolicy as NP

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=NP(type="filtered", allow_out=["bad host"], deny_out=["ALL_TRAFFIC"]))
