# The command's sources, one list for the native build (cli/CMakeLists.txt) and the WebAssembly
# build of the command (wasm/CMakeLists.txt): BOXLINT_CLI_SOURCES (the command) and
# BOXLINT_WALK_SOURCES (walk/, the directory walker that links nothing but libc).
set(_bl_cli ${CMAKE_CURRENT_LIST_DIR})
set(BOXLINT_CLI_SOURCES
  ${_bl_cli}/cmd/main.c ${_bl_cli}/cmd/args.c ${_bl_cli}/cmd/lint_cmd.c ${_bl_cli}/cmd/lint_print.c
  ${_bl_cli}/cmd/lint_jobs.c
  ${_bl_cli}/cmd/render_cmd.c ${_bl_cli}/cmd/rules_cmd.c ${_bl_cli}/cmd/policy_cmd.c
  ${_bl_cli}/cmd/policy_out.c ${_bl_cli}/cmd/policy_py.c ${_bl_cli}/cmd/lsp_cmd.c
  ${_bl_cli}/lsp/server.c ${_bl_cli}/lsp/handlers.c ${_bl_cli}/lsp/lsp_actions.c
  ${_bl_cli}/lsp/session.c ${_bl_cli}/lsp/lsp_pub.c ${_bl_cli}/lsp/lsp_io.c ${_bl_cli}/lsp/lsp_doc.c
  ${_bl_cli}/lsp/lsp_json.c
  ${_bl_cli}/fix/fix_run.c ${_bl_cli}/fix/fix_write.c ${_bl_cli}/fix/fix_edits.c
  ${_bl_cli}/fix/fix_diff.c
  ${_bl_cli}/output/output.c ${_bl_cli}/output/out_position.c ${_bl_cli}/output/out_text.c
  ${_bl_cli}/output/out_json.c ${_bl_cli}/output/out_sarif.c ${_bl_cli}/output/out_github.c
  ${_bl_cli}/input/lint_run.c ${_bl_cli}/input/template_load.c ${_bl_cli}/input/input.c
  ${_bl_cli}/input/jsonpos.c ${_bl_cli}/input/kind.c ${_bl_cli}/input/problem.c
  ${_bl_cli}/input/dir.c)
set(BOXLINT_WALK_SOURCES ${_bl_cli}/walk/walk.c ${_bl_cli}/walk/gitignore.c)
unset(_bl_cli)
