# A UTF-8 BOM and a utf-8 cookie together; a FROM must be found.
# -*- coding: utf-8 -*-
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("bom", ["RUN echo ünïcode", "FROM x"])
