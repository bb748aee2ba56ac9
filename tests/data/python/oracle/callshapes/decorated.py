# The call inside a decorated function, the decorator calling it twice with the same literal.
from budai import BudClient

client = BudClient(api_key="k")


def twice(fn):
    def run():
        fn()
        fn()
    return run


@twice
def build():
    client.code_interpreter.templates.create(name="deco", commands=["RUN sudo apt-get install -y x"], cpu_count=2, memory_mb=4096)


build()
