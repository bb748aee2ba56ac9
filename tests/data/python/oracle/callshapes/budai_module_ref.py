# The SDK through the module: import budai; budai.BudClient(); budai.NetworkPolicy(...).
import budai

client = budai.BudClient(api_key="k")
client.agents.add_code_interpreter(
    "prm_1", "python-4g",
    network_policy=budai.NetworkPolicy(type="disabled", allow_out=["pypi.org"]),
)
