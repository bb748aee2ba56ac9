"""What the tests of the Python bindings share. They run against the library built in this
tree ($BOXLINT_LIBRARY; ctest bindings_python), one file per module of the package."""

GOOD = dict(name="my-py-extra", commands=["RUN pip install --no-cache-dir pydantic-ai"],
            cpu_count=2, memory_mb=4096)

#: The seed example's policy.
SEED = {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"], "deny_out": []}


def rules_of(result):
    return [d.rule for d in result.diagnostics]

