# raw_unicode_escape: \\u000a in a comment ends the comment; the statement after it runs.
# coding: raw_unicode_escape
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
# note\u000asteps.append("CMD [\"sh\"]")
client.code_interpreter.templates.create(name="rue", commands=steps, cpu_count=2, memory_mb=4096)
