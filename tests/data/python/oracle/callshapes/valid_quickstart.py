# A valid file (no false alarm): the Quick Start with every field right.
from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
tpl = client.code_interpreter.templates.create(
    name="my-py-extra",
    commands=["RUN pip install --no-cache-dir pydantic-ai"],
    cpu_count=2,
    memory_mb=4096,
)
tpl.wait_until_ready(timeout=600)
client.agents.add_code_interpreter(
    "prm_abc", template_id="my-py-extra", version=1, lifespan_seconds=1200,
    network_policy=NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=["ALL_TRAFFIC"]),
)
