# hz: GB2312 text written as 7-bit ~~{...~~} sequences; a byte reader sees ASCII punctuation.
# coding: hz
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("hz", ["RUN echo ~{VPND#"##~}", "RUN pip install x"])
