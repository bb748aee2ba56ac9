client.agents.remove_code_interpreter("prm_abc")
