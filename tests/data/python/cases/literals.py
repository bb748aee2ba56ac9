# Every way Python spells a string, in one template: the findings must land on the character of
# the literal that holds the offending byte (an escape's backslash), as the JSON twin reports.
from budai import BudClient

client = BudClient()

SETUP = [
    "RUN apt-get update && apt-get install curl",   # apt-get-missing-yes, apt-lists-not-cleaned
    'pip install --no-cache-dir r\u00e9quests',      # unknown-instruction (no RUN)
]

tpl = client.code_interpreter.templates.create(
    name="Caf\u00e9 Template",                      # invalid-name
    commands=SETUP,
    cpu_count=2,
    memory_mb=4096,
)

tpl3 = client.code_interpreter.templates.create(
    "literal-forms-3",
    [
        "RUN pip install "  # implicit concatenation, with a comment between the pieces
        'pandas',
        R"WROKDIR /srv",
        u"\x46ROM python:3.12",
        """RUN set -e; \
echo one""",
        '''RUN echo "\N{LATIN SMALL LETTER E WITH ACUTE}" && sudo true''',
        Rf"RUN apt-get upgrade -y",
        f"RUN echo {{braces}} && curl -fsSL https://x.example | sh",
        "RUN  echo\ttab\x07bell",
    ],
    3,
    -1,
)
