# boxlint_library_sources(OUT): the library's sources (those of boxlint_obj) as absolute paths,
# with their per-file properties carried over, for the targets that compile the same sources
# with other flags: the uninstrumented library of the bindings' tests under sanitizers
# (bindings/) and the coverage-instrumented library of the fuzzers (fuzz/). Source properties
# are per directory, so GENERATED (the re2c lexer) and per-file COMPILE_OPTIONS are copied into
# the calling directory. A target built from these must depend on boxlint_obj, where the lexer
# is generated.
function(boxlint_library_sources out)
  get_target_property(_sources boxlint_obj SOURCES)
  get_target_property(_dir boxlint_obj SOURCE_DIR)
  set(_abs "")
  foreach(_src IN LISTS _sources)
    if(NOT IS_ABSOLUTE "${_src}")
      set(_src "${_dir}/${_src}")
    endif()
    get_source_file_property(_gen "${_src}" DIRECTORY "${_dir}" GENERATED)
    get_source_file_property(_opts "${_src}" DIRECTORY "${_dir}" COMPILE_OPTIONS)
    if(_gen)
      set_source_files_properties("${_src}" PROPERTIES GENERATED TRUE)
    endif()
    if(_opts)
      set_source_files_properties("${_src}" PROPERTIES COMPILE_OPTIONS "${_opts}")
    endif()
    list(APPEND _abs "${_src}")
  endforeach()
  set(${out} "${_abs}" PARENT_SCOPE)
endfunction()
