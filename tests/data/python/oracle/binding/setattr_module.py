# setattr(sys.modules[__name__], "steps", ...) rebinds the module-level name to a list with CMD.
import sys

from budai import BudClient

client = BudClient(api_key="k")
steps = ["RUN echo ready"]
setattr(sys.modules[__name__], "steps", ["CMD python3 app.py"])
client.code_interpreter.templates.create(name="setattr", commands=steps, cpu_count=2, memory_mb=4096)
