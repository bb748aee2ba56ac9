# `**EXTRA` unpacking in a policy dict overrides the type written before it.
from budai import BudClient

client = BudClient(api_key="k")
EXTRA = {"type": "disabled"}
client.agents.add_code_interpreter(
    "prm_1", "python-4g",
    network_policy={"type": "filtered", "allow_out": ["pypi.org"], "deny_out": ["ALL_TRAFFIC"], **EXTRA},
)
