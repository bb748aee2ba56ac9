# The type from a name that is rebound before the call (open with lists is an error).
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
T = "filtered"
T = "open"
NetworkPolicy(type=T, allow_out=["pypi.org"])
