/* Prints the size and member offsets of every public struct the bindings declare, as JSON,
 * from the real headers. The Python and Node.js tests compare their declarations with it. */
#include <stddef.h>
#include <stdio.h>
#include <boxlint/boxlint.h>

static int first_struct = 1, first_field = 1;

static void begin(const char *name, size_t size) {
  printf("%s\n  \"%s\": {\"size\": %zu, \"fields\": {", first_struct ? "{" : ",", name, size);
  first_struct = 0;
  first_field = 1;
}

static void field(const char *name, size_t offset) {
  printf("%s\"%s\": %zu", first_field ? "" : ", ", name, offset);
  first_field = 0;
}

static void end(void) { printf("}}"); }

#define S(T) begin(#T, sizeof(T))
#define F(T, m) field(#m, offsetof(T, m))

int main(void) {
  S(boxlint_span); F(boxlint_span, ptr); F(boxlint_span, len); end();
  S(boxlint_fix); F(boxlint_fix, offset); F(boxlint_fix, length); F(boxlint_fix, text);
  F(boxlint_fix, text_len); F(boxlint_fix, description); F(boxlint_fix, safety); end();
  S(boxlint_diag); F(boxlint_diag, rule); F(boxlint_diag, severity); F(boxlint_diag, command);
  F(boxlint_diag, path); F(boxlint_diag, line); F(boxlint_diag, column);
  F(boxlint_diag, end_line); F(boxlint_diag, end_column); F(boxlint_diag, offset);
  F(boxlint_diag, end_offset); F(boxlint_diag, message); F(boxlint_diag, hint);
  F(boxlint_diag, detail); F(boxlint_diag, fix); end();
  S(boxlint_heredoc); F(boxlint_heredoc, name); F(boxlint_heredoc, body);
  F(boxlint_heredoc, fd); F(boxlint_heredoc, chomp); F(boxlint_heredoc, expand);
  F(boxlint_heredoc, line); F(boxlint_heredoc, end_line); end();
  S(boxlint_instruction); F(boxlint_instruction, keyword); F(boxlint_instruction, trigger);
  F(boxlint_instruction, keyword_text); F(boxlint_instruction, text);
  F(boxlint_instruction, logical); F(boxlint_instruction, args); F(boxlint_instruction, flags);
  F(boxlint_instruction, nflags); F(boxlint_instruction, heredocs);
  F(boxlint_instruction, nheredocs); F(boxlint_instruction, json);
  F(boxlint_instruction, line); F(boxlint_instruction, end_line);
  F(boxlint_instruction, offset); F(boxlint_instruction, end_offset); end();
  S(boxlint_options); F(boxlint_options, size); F(boxlint_options, max_commands);
  F(boxlint_options, max_command_bytes); F(boxlint_options, escape); F(boxlint_options, config);
  F(boxlint_options, cpu_min); F(boxlint_options, cpu_max); F(boxlint_options, memory_min);
  F(boxlint_options, memory_max); F(boxlint_options, no_instructions); end();
  S(boxlint_number); F(boxlint_number, present); F(boxlint_number, is_integer);
  F(boxlint_number, value); F(boxlint_number, text); end();
  S(boxlint_template); F(boxlint_template, name); F(boxlint_template, has_name);
  F(boxlint_template, commands); F(boxlint_template, ncommands);
  F(boxlint_template, has_commands); F(boxlint_template, cpu_count);
  F(boxlint_template, memory_mb); F(boxlint_template, extra_fields);
  F(boxlint_template, nextra_fields); end();
  S(boxlint_binding); F(boxlint_binding, template_id); F(boxlint_binding, has_template_id);
  F(boxlint_binding, template_id_not_string); F(boxlint_binding, template_text);
  F(boxlint_binding, version); F(boxlint_binding, lifespan_seconds);
  F(boxlint_binding, extra_fields); F(boxlint_binding, nextra_fields); end();
  S(boxlint_rule_info); F(boxlint_rule_info, id); F(boxlint_rule_info, severity);
  F(boxlint_rule_info, summary); F(boxlint_rule_info, description); F(boxlint_rule_info, bad);
  F(boxlint_rule_info, good); end();
  S(boxlint_error); F(boxlint_error, code); F(boxlint_error, offset);
  F(boxlint_error, message); end();
  S(boxlint_user_rule); F(boxlint_user_rule, id); F(boxlint_user_rule, severity);
  F(boxlint_user_rule, instruction); F(boxlint_user_rule, pattern);
  F(boxlint_user_rule, message); end();
  S(boxlint_policy_spec); F(boxlint_policy_spec, type); F(boxlint_policy_spec, allow_out);
  F(boxlint_policy_spec, n_allow); F(boxlint_policy_spec, deny_out);
  F(boxlint_policy_spec, n_deny); end();
  S(boxlint_policy_options); F(boxlint_policy_options, size);
  F(boxlint_policy_options, max_entries); F(boxlint_policy_options, unmatched);
  F(boxlint_policy_options, compat); F(boxlint_policy_options, path_prefix);
  F(boxlint_policy_options, config); end();
  S(boxlint_emit_options); F(boxlint_emit_options, size); F(boxlint_emit_options, table);
  F(boxlint_emit_options, iifname); F(boxlint_emit_options, resolvers);
  F(boxlint_emit_options, nresolvers); F(boxlint_emit_options, proxy_user);
  F(boxlint_emit_options, proxy_http_port); F(boxlint_emit_options, proxy_tls_port); end();
  S(boxlint_decision); F(boxlint_decision, verdict); F(boxlint_decision, reason);
  F(boxlint_decision, list); F(boxlint_decision, index); F(boxlint_decision, entry);
  F(boxlint_decision, by_name); end();
  /* Enums: the bindings pass them as 32-bit ints. */
  begin("enum boxlint_status", sizeof(boxlint_status)); end();
  begin("enum boxlint_severity", sizeof(boxlint_severity)); end();
  begin("enum boxlint_fix_safety", sizeof(boxlint_fix_safety)); end();
  begin("enum boxlint_keyword", sizeof(boxlint_keyword)); end();
  begin("enum boxlint_policy_list", sizeof(boxlint_policy_list)); end();
  begin("enum boxlint_policy_unmatched", sizeof(boxlint_policy_unmatched)); end();
  begin("enum boxlint_verdict", sizeof(boxlint_verdict)); end();
  begin("enum boxlint_decision_reason", sizeof(boxlint_decision_reason)); end();
  printf("\n}\n");
  return 0;
}
