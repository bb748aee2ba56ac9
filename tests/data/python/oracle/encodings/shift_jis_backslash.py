# shift_jis: the second byte of a kanji is 0x5C, so a byte reader sees an escaped backslash where CPython sees a newline escape.
# -*- coding: shift_jis -*-
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("sjis", ["RUN echo 表\nFROM x"])
