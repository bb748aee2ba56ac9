# `__CMDS` inside class Builder is `_Builder__CMDS`: the method changes the module-level list
from budai import BudClient
_Builder__CMDS = ["RUN ok"]
class Builder:
    def add(self):
        __CMDS.append("FROM x")
Builder().add()
BudClient(api_key="k").code_interpreter.templates.create(name="a", commands=_Builder__CMDS, cpu_count=2, memory_mb=4096)
