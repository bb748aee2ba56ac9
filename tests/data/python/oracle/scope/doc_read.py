# the module docstring read back as __doc__ is a value of the file: never silent
"""FROM nvidia/cuda:12.4.0"""
from budai import BudClient
BudClient(api_key="k").code_interpreter.templates.create(name="a", commands=[__doc__], cpu_count=2, memory_mb=4096)
