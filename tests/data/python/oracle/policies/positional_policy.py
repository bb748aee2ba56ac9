# NetworkPolicy with positional arguments, one list empty and defaults used.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy("filtered", ["1.1.1.1"])
NetworkPolicy()
NetworkPolicy("open", [], ["10.0.0.0/8"])
