# An IPv4-mapped IPv6 entry and a deny of a domain.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy(type="filtered", allow_out=["::ffff:10.0.0.1"], deny_out=["example.com"])
