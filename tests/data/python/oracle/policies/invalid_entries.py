# Invalid entries: a bad CIDR, a host with a space, an empty string.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy(type="filtered", allow_out=["10.0.0.0/33", "bad host", ""], deny_out=["ALL_TRAFFIC"])
