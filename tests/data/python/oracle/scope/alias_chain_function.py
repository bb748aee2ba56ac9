# a chain of aliases inside a function: ci, then its templates, then update
from budai import BudClient


def main(client):
    ci = client.code_interpreter
    t = ci.templates
    up = t.update
    up("tpl", commands=["FROM x", "RUN ok"])


main(BudClient(api_key="k"))
