# BOXLINT_STATIC_DEPS: find a dependency's static archive (Debian's -dev package ships it beside
# the .so), by its full file name so that the linker cannot take the shared library instead.
#   boxlint_static_archive(<VAR> <library name without lib and .a> <Debian package that ships it>)
function(boxlint_static_archive var name package)
  find_library(${var} NAMES lib${name}.a)
  if(NOT ${var})
    message(FATAL_ERROR "BOXLINT_STATIC_DEPS=ON needs lib${name}.a, the static archive Debian's "
                        "${package} ships; install it (apt-get install ${package}) or leave "
                        "BOXLINT_STATIC_DEPS OFF")
  endif()
endfunction()
