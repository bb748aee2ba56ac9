client.code_interpreter.templates.delete("my-py-extra")
