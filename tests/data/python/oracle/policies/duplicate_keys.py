# dict literal with duplicate keys: the last wins
from budai import BudClient, NetworkPolicy
client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm", "python-4g", network_policy={"type": "open", "type": "filtered", "allow_out": ["a.example.com"], "deny_out": []})
