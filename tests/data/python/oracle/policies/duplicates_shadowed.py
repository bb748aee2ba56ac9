# Duplicate and shadowed entries in a policy dict.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy={"type": "filtered", "allow_out": ["10.0.0.0/8", "10.0.0.0/8"], "deny_out": ["10.1.0.0/16", "ALL_TRAFFIC"]})
