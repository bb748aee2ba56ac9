# A valid use: a comment standing alone silences the next line's warning (no false alarm).
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.create(
    name="ok2",
    # boxlint: ignore=apt-get-missing-yes
    commands=["RUN apt-get install curl"],
    cpu_count=2,
    memory_mb=4096,
)
