# **ARGS from a dict bound once at module level gives the arguments, with a FROM inside.
from budai import BudClient

client = BudClient(api_key="k")
ARGS = {"name": "kw", "commands": ["FROM x"], "cpu_count": 2, "memory_mb": 4096}
client.code_interpreter.templates.create(**ARGS)
