binding = client.agents.add_code_interpreter(
    "prm_abc",
    template_id="my-py-extra",
    version=1,
    lifespan_seconds=1200,
    network_policy={
        "type": "filtered",
        "allow_out": ["pypi.org", "*.pythonhosted.org"],
        "deny_out": [],
    },
)
