# A keyword with a fullwidth low line: ｎｅｔｗｏｒｋ＿ｐｏｌｉｃｙ= is network_policy=.
from budai import BudClient

client = BudClient(api_key="k")
client.agents.add_code_interpreter("prm_1", "python-4g", ｎｅｔｗｏｒｋ＿ｐｏｌｉｃｙ={"type": "disabled", "allow_out": ["pypi.org"]})
