# The platform's Quick Start (Code Interpreter documentation): a template and the binding that
# attaches it to an agent, written as SDK calls. `boxlint examples/quickstart.py` checks them.
from budai import BudClient

client = BudClient(api_key="your-key")

tpl = client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["RUN pip install --no-cache-dir pydantic-ai"],
    cpu_count=2,
    memory_mb=4096,
)
client.code_interpreter.templates.update("my-py-extra", commands=["RUN pip install httpx"])
binding = client.agents.add_code_interpreter(
    "prm_abc", template_id="my-py-extra", version=1, lifespan_seconds=1200,
    network_policy={"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"], "deny_out": []},
)
