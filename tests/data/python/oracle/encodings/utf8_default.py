# No cookie: UTF-8 by default, with non-ASCII text, a fullwidth space and a denied FROM.
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("u8", ["RUN echo 日本語", "FROM　x"])
