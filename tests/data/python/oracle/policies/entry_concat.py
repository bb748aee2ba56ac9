# Entries built by implicit concatenation and a conditional expression.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
FLAG = True
NetworkPolicy(type="filtered", allow_out=["pypi" ".org", "10.0.0.1" if FLAG else "x y"], deny_out=["ALL_TRAFFIC"])
