# Domains and wildcards in a NetworkPolicy, a broad wildcard and '*' among them.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
NetworkPolicy(type="filtered", allow_out=["pypi.org", "*.pythonhosted.org", "*.com", "*"], deny_out=["ALL_TRAFFIC"])
