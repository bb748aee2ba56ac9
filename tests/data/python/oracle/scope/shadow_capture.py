# `case NetworkPolicy:` is a capture: it binds NetworkPolicy to the subject, which is then called
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
match dict:
    case NetworkPolicy:
        pass
client.agents.add_code_interpreter(agent_id="a", template_id="t", version=1,
                                   network_policy=NetworkPolicy(type="bogus"))
