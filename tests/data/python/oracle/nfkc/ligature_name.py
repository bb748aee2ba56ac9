# A ligature ﬁ in a variable name: steps_ﬁle and steps_file are one variable, changed.
from budai import BudClient

client = BudClient(api_key="k")
steps_ﬁle = ["RUN echo ready"]
steps_file.append("FROM x")
client.code_interpreter.templates.create(name="lig", commands=steps_ﬁle, cpu_count=2, memory_mb=4096)
