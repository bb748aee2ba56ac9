# a module-level list read by a slice, len, in and a for loop stays known: its 65 commands are too many
from budai import BudClient
client = BudClient(api_key="k")
COMMANDS = ["RUN echo 0", "RUN echo 1", "RUN echo 2", "RUN echo 3", "RUN echo 4", "RUN echo 5", "RUN echo 6", "RUN echo 7", "RUN echo 8", "RUN echo 9", "RUN echo 10", "RUN echo 11", "RUN echo 12", "RUN echo 13", "RUN echo 14", "RUN echo 15", "RUN echo 16", "RUN echo 17", "RUN echo 18", "RUN echo 19", "RUN echo 20", "RUN echo 21", "RUN echo 22", "RUN echo 23", "RUN echo 24", "RUN echo 25", "RUN echo 26", "RUN echo 27", "RUN echo 28", "RUN echo 29", "RUN echo 30", "RUN echo 31", "RUN echo 32", "RUN echo 33", "RUN echo 34", "RUN echo 35", "RUN echo 36", "RUN echo 37", "RUN echo 38", "RUN echo 39", "RUN echo 40", "RUN echo 41", "RUN echo 42", "RUN echo 43", "RUN echo 44", "RUN echo 45", "RUN echo 46", "RUN echo 47", "RUN echo 48", "RUN echo 49", "RUN echo 50", "RUN echo 51", "RUN echo 52", "RUN echo 53", "RUN echo 54", "RUN echo 55", "RUN echo 56", "RUN echo 57", "RUN echo 58", "RUN echo 59", "RUN echo 60", "RUN echo 61", "RUN echo 62", "RUN echo 63", "RUN echo 64"]
first = COMMANDS[:64]
n = len(COMMANDS)
seen = "RUN echo 1" in COMMANDS
for c in COMMANDS:
    pass
client.code_interpreter.templates.create(name="a", commands=COMMANDS, cpu_count=2, memory_mb=4096)
