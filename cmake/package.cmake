# cmake/package.cmake: Debian packages with CPack's DEB generator (`make package`).
# Included after cmake/install.cmake. Three packages, one per install component:
#   boxlint          Runtime      the command, its man page, the README and docs/ (the rule pages)
#   libboxlint0      Library      the shared library (SONAME libboxlint.so.0)
#   libboxlint-dev   Development  headers, static library, namelink, libboxlint.pc, CMake package
# Dependencies are computed: dpkg-shlibdeps for what the binaries link (CPack's SHLIBDEPS), the
# component graph for libboxlint-dev -> libboxlint0 (= version), and for libboxlint-dev the
# Debian packages that own the -dev files of libboxlint.pc's Requires.private (dpkg -S, found
# when this is configured). BOXLINT_DEB_DOCS=ON (set by `make package`) adds what Debian
# wants in each package's /usr/share/doc: the copyright file and a gzipped changelog, and
# gzips the man page.

set(BOXLINT_DEB_PACKAGES boxlint libboxlint0 libboxlint-dev)
set(BOXLINT_DEB_COMPONENTS Runtime Library Development)

if(BOXLINT_DEB_DOCS)
  find_program(BOXLINT_GZIP gzip REQUIRED)
  configure_file("${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in"
                 "${PROJECT_BINARY_DIR}/deb/changelog.Debian" @ONLY)
  execute_process(COMMAND ${BOXLINT_GZIP} -9nf "${PROJECT_BINARY_DIR}/deb/changelog.Debian")
  foreach(_pkg _comp IN ZIP_LISTS BOXLINT_DEB_PACKAGES BOXLINT_DEB_COMPONENTS)
    install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright"
                  "${PROJECT_BINARY_DIR}/deb/changelog.Debian.gz"
      DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${_pkg}" COMPONENT ${_comp})
  endforeach()
endif()

# The Debian package that ships pkg-config module `mod` (its .pc file), into `out`.
function(boxlint_deb_of_pc mod out)
  execute_process(COMMAND pkg-config --variable=pcfiledir ${mod}
                  OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  set(_pkg "")
  if(_rc EQUAL 0 AND _dir)
    execute_process(COMMAND dpkg-query -S "${_dir}/${mod}.pc"
                    OUTPUT_VARIABLE _owner RESULT_VARIABLE _rc2 ERROR_QUIET)
    if(_rc2 EQUAL 0 AND _owner MATCHES "^([^:,]+)")
      set(_pkg "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${_pkg}" PARENT_SCOPE)
endfunction()

set(_dev_depends "")
foreach(_mod IN LISTS _boxlint_pc_requires)
  boxlint_deb_of_pc(${_mod} _p)
  if(_p)
    list(APPEND _dev_depends "${_p}")
  endif()
endforeach()
foreach(_flag IN LISTS _boxlint_pc_libs) # Libs.private -lX: the package owning libX.so
  if(_flag MATCHES "^-l(.+)$")
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=lib${CMAKE_MATCH_1}.so
                    OUTPUT_VARIABLE _so OUTPUT_STRIP_TRAILING_WHITESPACE)
    get_filename_component(_so "${_so}" ABSOLUTE) # ".." folded, the namelink kept
    execute_process(COMMAND dpkg-query -S "${_so}" OUTPUT_VARIABLE _owner RESULT_VARIABLE _rc
                    ERROR_QUIET)
    if(_rc EQUAL 0 AND _owner MATCHES "^([^:,]+)")
      list(APPEND _dev_depends "${CMAKE_MATCH_1}")
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES _dev_depends)
string(REPLACE ";" ", " _dev_depends "${_dev_depends}")

set(CPACK_PACKAGE_NAME boxlint)
set(CPACK_PACKAGE_VENDOR "The boxlint developers")
set(CPACK_PACKAGE_CONTACT "The boxlint developers <boxlint@packages.example.org>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "sandbox template linter")
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${BOXLINT_DEB_COMPONENTS})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME boxlint)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "linter for code-interpreter sandbox templates
boxlint checks the Dockerfile commands of a sandbox template as BuildKit
will read them once appended to the platform's base image, the template's
name and resources, and the NetworkPolicy of an agent's binding, in JSON
files, Dockerfile fragments and Python source with SDK calls. It reports
every problem with its position, applies fixes, and serves editors as a
language server.")

set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libboxlint0)
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# ldconfig through dpkg's trigger, as Debian policy wants, not from maintainer scripts
file(WRITE "${PROJECT_BINARY_DIR}/deb/triggers" "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_CONTROL_EXTRA "${PROJECT_BINARY_DIR}/deb/triggers")
set(CPACK_DEBIAN_LIBRARY_DESCRIPTION "sandbox template linter - shared library
libboxlint checks the commands of code-interpreter sandbox templates,
Dockerfile fragments, Python source with SDK calls and NetworkPolicy
entries, and decides what a policy allows. This package holds the shared
library.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libboxlint-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEVELOPMENT_DEPENDS Library)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "${_dev_depends}")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "sandbox template linter - development files
libboxlint checks the commands of code-interpreter sandbox templates,
Dockerfile fragments, Python source with SDK calls and NetworkPolicy
entries. This package holds the headers, the static library, the
pkg-config file and the CMake package.")

include(CPack)
