# Strings are not normalized: the key "ｔｙｐｅ" is not "type" (no false reading of open).
from budai import BudClient

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", network_policy={"type": "filtered", "ｔｙｐｅ": "open", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"]})
