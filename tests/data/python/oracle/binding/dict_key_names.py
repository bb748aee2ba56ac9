# Dict keys given as names and expressions: {K: "open"} where K == "type".
from budai import BudClient

client = BudClient(api_key="k")
K = "type"
L = "allow" + "_out"
client.agents.add_code_interpreter(
    "prm_1", "python-4g",
    network_policy={"type": "disabled", K: "open", L: ["10.0.0.0/8"]},
)
