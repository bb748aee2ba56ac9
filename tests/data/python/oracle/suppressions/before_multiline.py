# A suppression on the line before a multi-line call covers only that line (the call's first).
from budai import BudClient

client = BudClient(api_key="k")
# boxlint: ignore=pip-no-cache-dir,apt-get-missing-yes
client.code_interpreter.templates.create(
    name="multi",
    commands=["RUN pip install x", "RUN apt-get install y"],
    cpu_count=2,
    memory_mb=4096,
)
