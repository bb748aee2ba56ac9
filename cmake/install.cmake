# cmake/install.cmake: install rules, the pkg-config file and the CMake package.
# Included from the top-level CMakeLists.txt (after lib/ and cli/) when BOXLINT_INSTALL is ON.
#
# Components (one Debian package each, cmake/package.cmake): "Library" (the shared library),
# "Runtime" (the boxlint command, its man page, the README and docs/) and "Development" (headers, static
# library, namelink, libboxlint.pc, the CMake package). `cmake --install` without --component
# installs all three.

include(CMakePackageConfigHelpers)

set(BOXLINT_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/boxlint")

#----------------------------------------------------------------------------------------------
# What the static library needs at link time.
#
# The libraries are built from one object library, so dependencies are linked into `boxlint`
# and `boxlint_static` themselves, PRIVATE. For the shared library that stays private. For the
# static library CMake keeps them in its link interface as $<LINK_ONLY:...>, so they must be
# reproducible wherever the package is used: the exported boxlint-targets.cmake names e.g.
# PkgConfig::PCRE2 verbatim, and boxlint-config.cmake must recreate that imported target before
# including it; libboxlint.pc must name the same modules in Requires.private. Both lists are
# derived here from the targets themselves, so a dependency added in lib/CMakeLists.txt with
# pkg_check_modules(<P> REQUIRED IMPORTED_TARGET <module>) needs no change in this file.
#----------------------------------------------------------------------------------------------
set(_boxlint_pc_requires "libpcre2-8") # user rules: PCRE2 (docs/design.md §2.3), private
set(_boxlint_pc_libs "")
set(_boxlint_pkg_deps "")              # "<prefix>=<module>" pairs for boxlint-config.cmake
get_target_property(_boxlint_iface boxlint_static INTERFACE_LINK_LIBRARIES)
if(NOT _boxlint_iface)
  set(_boxlint_iface "")
endif()
foreach(_item IN LISTS _boxlint_iface)
  string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" _item "${_item}")
  if(_item MATCHES "^PkgConfig::(.+)$")
    set(_prefix "${CMAKE_MATCH_1}")
    set(_module "${${_prefix}_MODULE_NAME}")
    if(NOT _module)
      message(FATAL_ERROR "boxlint install: ${_item} is linked into boxlint_static but "
        "${_prefix}_MODULE_NAME is unset; create it with pkg_check_modules(${_prefix} REQUIRED "
        "IMPORTED_TARGET <one module>) so the installed package can recreate it")
    endif()
    list(APPEND _boxlint_pc_requires "${_module}")
    list(APPEND _boxlint_pkg_deps "${_prefix}=${_module}")
  elseif(_item MATCHES "^-l" OR _item MATCHES "^[A-Za-z0-9_.+-]+$")
    if(TARGET "${_item}")
      message(FATAL_ERROR "boxlint install: boxlint_static links the in-tree target ${_item}; "
        "add it to the boxlint-targets export set in cmake/install.cmake")
    endif()
    string(REGEX REPLACE "^-l" "" _item "${_item}")
    list(APPEND _boxlint_pc_libs "-l${_item}")
  elseif(_item MATCHES "^\\$<" OR _item MATCHES "::")
    message(WARNING "boxlint install: ${_item} in boxlint_static's link interface is not "
      "reproduced in libboxlint.pc or boxlint-config.cmake; extend cmake/install.cmake")
  else()
    list(APPEND _boxlint_pc_libs "${_item}") # a full path or a linker flag, kept as is
  endif()
endforeach()
list(REMOVE_DUPLICATES _boxlint_pc_requires)
list(REMOVE_DUPLICATES _boxlint_pc_libs)
list(REMOVE_DUPLICATES _boxlint_pkg_deps)
string(REPLACE ";" ", " BOXLINT_PC_REQUIRES_PRIVATE "${_boxlint_pc_requires}")
string(REPLACE ";" " " BOXLINT_PC_LIBS_PRIVATE "${_boxlint_pc_libs}")

#----------------------------------------------------------------------------------------------
# Libraries and headers
#----------------------------------------------------------------------------------------------
install(TARGETS boxlint boxlint_static EXPORT boxlint-targets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT Library
          NAMELINK_COMPONENT Development
          PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ # a library is not run
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT Development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT Library
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/lib/include/boxlint"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT Development
  FILES_MATCHING PATTERN "*.h")
install(FILES "${PROJECT_BINARY_DIR}/lib/include/boxlint/export.h"
              "${PROJECT_BINARY_DIR}/lib/include/boxlint/version.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/boxlint" COMPONENT Development)

#----------------------------------------------------------------------------------------------
# pkg-config. The file holds absolute paths (@CMAKE_INSTALL_FULL_LIBDIR@ ...), so it is
# configured when it is installed, from the prefix in effect then: `cmake --install --prefix P`
# gets a libboxlint.pc that points into P, not into the prefix the tree was configured with.
# DESTDIR is honoured by file(INSTALL) and does not leak into the file.
#----------------------------------------------------------------------------------------------
configure_file("${CMAKE_CURRENT_LIST_DIR}/install-pc.cmake.in"
               "${PROJECT_BINARY_DIR}/boxlint-install-pc.cmake" @ONLY)
install(SCRIPT "${PROJECT_BINARY_DIR}/boxlint-install-pc.cmake" COMPONENT Development)

#----------------------------------------------------------------------------------------------
# CMake package: find_package(boxlint) gives boxlint::boxlint and boxlint::boxlint_static.
#----------------------------------------------------------------------------------------------
set(BOXLINT_PKG_DEPS "${_boxlint_pkg_deps}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/boxlint-config.cmake.in"
  "${PROJECT_BINARY_DIR}/boxlint-config.cmake"
  INSTALL_DESTINATION "${BOXLINT_CMAKE_DIR}"
  NO_SET_AND_CHECK_MACRO NO_CHECK_REQUIRED_COMPONENTS_MACRO)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/boxlint-config-version.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(EXPORT boxlint-targets NAMESPACE boxlint:: FILE boxlint-targets.cmake
  DESTINATION "${BOXLINT_CMAKE_DIR}" COMPONENT Development)
install(FILES "${PROJECT_BINARY_DIR}/boxlint-config.cmake"
              "${PROJECT_BINARY_DIR}/boxlint-config-version.cmake"
  DESTINATION "${BOXLINT_CMAKE_DIR}" COMPONENT Development)

#----------------------------------------------------------------------------------------------
# The command and its man page
#----------------------------------------------------------------------------------------------
if(TARGET boxlint_cli)
  install(TARGETS boxlint_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT Runtime)
  # the man page, written at build time from its template (man/boxlint.1.in: the project's
  # version on its .TH line) and the options table (cli/cmd/options.def: the OPTIONS sections)
  # by man/gen_man.c; gzipped for a Debian package
  add_executable(boxlint_gen_man "${PROJECT_SOURCE_DIR}/man/gen_man.c")
  target_include_directories(boxlint_gen_man PRIVATE "${PROJECT_SOURCE_DIR}/cli")
  boxlint_add_warnings(boxlint_gen_man)
  set(_man_page "${PROJECT_BINARY_DIR}/man/boxlint.1")
  set(_man_outputs "${_man_page}")
  set(_man_gzip "")
  if(BOXLINT_DEB_DOCS)
    find_program(BOXLINT_GZIP gzip REQUIRED)
    set(_man_gzip COMMAND ${BOXLINT_GZIP} -9nkf "${_man_page}")
    list(APPEND _man_outputs "${_man_page}.gz")
  endif()
  add_custom_command(OUTPUT ${_man_outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${PROJECT_BINARY_DIR}/man"
    COMMAND boxlint_gen_man "${PROJECT_SOURCE_DIR}/man/boxlint.1.in" "${_man_page}"
            "${PROJECT_VERSION}"
    ${_man_gzip}
    DEPENDS boxlint_gen_man "${PROJECT_SOURCE_DIR}/man/boxlint.1.in"
            "${PROJECT_SOURCE_DIR}/cli/cmd/options.def"
    COMMENT "Writing the man page from man/boxlint.1.in and cli/cmd/options.def" VERBATIM)
  add_custom_target(boxlint_man ALL DEPENDS ${_man_outputs})
  if(BOXLINT_DEB_DOCS)
    set(_man_page "${_man_page}.gz")
  endif()
  install(FILES "${_man_page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT Runtime)
  # the README and docs/, whose rule pages (docs/rules/<id>.md) `boxlint lsp` links findings to
  install(FILES "${PROJECT_SOURCE_DIR}/README.md"
    DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT Runtime)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs"
    DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT Runtime FILES_MATCHING PATTERN "*.md")
endif()

#----------------------------------------------------------------------------------------------
# Tests of the installed tree (and the embedding example)
#----------------------------------------------------------------------------------------------
if(BOXLINT_BUILD_TESTS)
  add_subdirectory("${PROJECT_SOURCE_DIR}/tests/packaging/install"
                   "${PROJECT_BINARY_DIR}/tests/packaging/install")
endif()
