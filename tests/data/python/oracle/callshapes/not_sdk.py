# A local class with .templates.create is not the SDK: boxlint must not check it (one real call).
from budai import BudClient


class Site:
    class templates:
        @staticmethod
        def create(**kw):
            return kw


site = Site()
site.templates.create(name="Not A Slug!", commands=["FROM x"], cpu_count=0, memory_mb=1)
client = BudClient(api_key="k")
client.code_interpreter.templates.create(name="real", commands=["RUN echo hi"], cpu_count=2, memory_mb=4096)
