# A policy dict built by dict(...) with keyword arguments.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy=dict(type="open", allow_out=["pypi.org"]))
