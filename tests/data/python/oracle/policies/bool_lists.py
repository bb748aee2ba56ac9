# Booleans where the SDK takes lists and a string: the platform rejects each, as it rejects true and false in JSON.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g",
                                   network_policy=NetworkPolicy(type="filtered", allow_out=True, deny_out=False))
client.agents.add_code_interpreter("prm_2", "python-4g", network_policy={"type": True, "allow_out": ["pypi.org"]})
client.code_interpreter.templates.create(name="a", commands="RUN a", cpu_count=2, memory_mb=4096)
