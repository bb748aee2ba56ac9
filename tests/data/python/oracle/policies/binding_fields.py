# Binding fields: a bad template_id, version 0, lifespan 10 (unusual) and -5.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "Bad Id!", version=0, lifespan_seconds=10)
client.agents.add_code_interpreter("prm_2", template_id="python-4g", lifespan_seconds=-5)
