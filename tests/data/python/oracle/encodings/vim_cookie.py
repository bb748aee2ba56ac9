# A vim modeline is a cookie too (fileencoding=latin-1); latin-1 text and a denied ADD.
# vim: set fileencoding=latin-1 :
from budai import BudClient

client = BudClient(api_key="k")
client.code_interpreter.templates.update("vim", ["RUN echo déjà", "ADD a /b"])
