# A filtered policy dict with IPv4/IPv6 addresses and CIDRs, deny-all last.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy={"type": "filtered", "allow_out": ["10.0.0.1", "192.168.0.0/16", "2001:db8::/32"], "deny_out": ["ALL_TRAFFIC"]})
