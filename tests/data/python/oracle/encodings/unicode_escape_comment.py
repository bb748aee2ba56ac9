# unicode_escape: a \\n in a comment is a real newline after decoding, and the code after it runs.
# coding: unicode_escape
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
# note\nsteps.append("COPY a /b")
client.code_interpreter.templates.create(name="ue", commands=steps, cpu_count=2, memory_mb=4096)
