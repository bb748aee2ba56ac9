# cp1252: curly quotes and the euro sign (0x80-0x9F bytes) in commands, with a denied CMD.
# coding: cp1252
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("cp", ["RUN echo ’quoted’ costs 5€", "CMD echo “x”"])
