# A policy dict bound once, whose allow_out list is changed before the binding (an invalid entry).
from budai import BudClient

client = BudClient(api_key="k")
POLICY = {"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]}
POLICY["allow_out"].append("not a host!")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=POLICY)
