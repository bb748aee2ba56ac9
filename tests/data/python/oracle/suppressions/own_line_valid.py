# A valid use: a trailing comment on the literal's line silences that warning (no false alarm).
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create(
    name="ok",
    commands=["RUN pip install x"],  # boxlint: ignore=pip-no-cache-dir
    cpu_count=2,
    memory_mb=4096,
)
