# a local class NetworkPolicy(dict) shadows the SDK's: what it makes is sent, so the call is not-static
from budai import BudClient


class NetworkPolicy(dict):
    def __init__(self, **kw):
        super().__init__(**kw)


client = BudClient(api_key="k")
client.agents.add_code_interpreter(agent_id="a", template_id="t", version=1,
                                   network_policy=NetworkPolicy(type="bogus"))
