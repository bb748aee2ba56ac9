#!/usr/bin/env python3
# -*- coding: latin-1 -*-
# (cookie on line 2) latin-1 text and a denied ENTRYPOINT.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("l2", ["RUN echo naïve", "ENTRYPOINT [\"x\"]"])
