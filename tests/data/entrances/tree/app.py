from budai import BudClient, NetworkPolicy

client = BudClient(api_key="k")
client.code_interpreter.templates.create(
    name="py-extra",
    commands=["RUN pip install pydantic-ai",  # boxlint: ignore=pip-no-cache-dir
              "RUN sudo apt-get install -y git",
              "COPY . /app"],
    cpu_count=2,
    memory_mb=4096,
)
# boxlint ignore=sudo-usage -- the old spelling, on the line before
client.code_interpreter.templates.update("py-extra", commands=["RUN sudo apt-get install -y vim"])
policy = NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=[])  # boxlint: ignore=duplicate-entry
client.agents.add_code_interpreter(agent_id="a1", template_id="py-extra", version=0, lifespan_seconds=600, network_policy=policy)
