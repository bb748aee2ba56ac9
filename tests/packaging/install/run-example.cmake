# ctest helper: run examples/embed.c's program and check its exit code and output.
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "example_embed: exit status ${rc}, expected 1 (the commands have errors)")
endif()
foreach(want
    "commands[1]:1:1: error: "
    "[unknown-instruction]"
    "commands[2]:1:1: error: "
    "[denied-instruction]"
    "    hint: ")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "example_embed: output lacks \"${want}\"")
  endif()
endforeach()
string(FIND "${out}" "commands[0]:" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "example_embed: commands[0] is valid but has a finding")
endif()
