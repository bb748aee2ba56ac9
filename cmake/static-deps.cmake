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

# Position independence (bookworm's archives, checked by linking each whole into a shared
# object): libpcre2-8.a is PIC; libidn2.a, libunistring.a and libjansson.a are not (R_X86_64_PC32
# against symbols of other objects, e.g. idna.o -> uninorm_nfc, localename.o ->
# __libc_single_threaded). libboxlint.so still links without text relocations because every
# symbol the members it pulls refer to by PC32 is defined inside it and bound locally (the
# version script and --exclude-libs make them non-preemptible); jansson goes only into the
# command, a PIE, where the same holds. tests/packaging/static_deps_test.sh fails on a TEXTREL.
# Should a new call pull a member that reaches a libc data symbol that way, the link fails with
# "recompile with -fPIC": then build that library's archive with -fPIC from Debian's source.
