# A second binding through a look-alike name: steps bound once in ASCII, again as 𝐬𝐭𝐞𝐩𝐬.
from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
𝐬𝐭𝐞𝐩𝐬 = ["ENTRYPOINT sh"]
client.code_interpreter.templates.create(name="reb", commands=steps, cpu_count=2, memory_mb=4096)
