# The WebAssembly builds (wasm/CMakeLists.txt), as the target `wasm`: a project of its own,
# configured and built in ${PROJECT_BINARY_DIR}/wasm with the wasm32-wasi toolchain
# (wasm/wasi.cmake), giving ${PROJECT_BINARY_DIR}/wasm/boxlint.wasm (the library) and, where
# jansson's source is at hand, boxlint-cli.wasm (the command). Its PCRE2 and jansson are built
# from Debian's sources in BOXLINT_WASM_SOURCES, which tools/wasm-sources.sh fetches in `make
# deps`; without them it leaves out what needs them (wasm/CMakeLists.txt says what).
#   BOXLINT_WASM=AUTO (default): a target when Debian's clang, lld, wasi-libc and
#                     libclang-rt-14-dev-wasm32 are here (in `all` with the tests), else
#                     left out with a message
#   BOXLINT_WASM=ON:  they must be here (configure stops naming what is missing)
#   BOXLINT_WASM=OFF: no target
# tests/oracle/wasm_test.js compares its findings with the native library's (ctest wasm_findings).
set(BOXLINT_WASM AUTO CACHE STRING "Build the WebAssembly library (wasm/): AUTO, ON or OFF")
set_property(CACHE BOXLINT_WASM PROPERTY STRINGS AUTO ON OFF)
set(BOXLINT_WASM_MODULE "${PROJECT_BINARY_DIR}/wasm/boxlint.wasm")
set(BOXLINT_WASM_CLI_MODULE "${PROJECT_BINARY_DIR}/wasm/boxlint-cli.wasm")
set(BOXLINT_WASM_SOURCES "${PROJECT_SOURCE_DIR}/build/wasm-sources" CACHE PATH
    "Debian's pcre2 and jansson sources for the WebAssembly build (tools/wasm-sources.sh)")
set(BOXLINT_WASM_ENABLED OFF)
if(NOT BOXLINT_WASM STREQUAL "OFF")
  find_program(BOXLINT_WASM_CLANG NAMES clang clang-14)
  find_program(BOXLINT_WASM_LD NAMES wasm-ld wasm-ld-14)
  find_file(BOXLINT_WASI_LIBC libc.a PATHS /usr/lib/wasm32-wasi NO_DEFAULT_PATH)
  file(GLOB _bl_wasm_rt /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a)
  set(_bl_wasm_missing "")
  if(NOT BOXLINT_WASM_CLANG)
    list(APPEND _bl_wasm_missing clang)
  endif()
  if(NOT BOXLINT_WASM_LD)
    list(APPEND _bl_wasm_missing lld)
  endif()
  if(NOT BOXLINT_WASI_LIBC)
    list(APPEND _bl_wasm_missing wasi-libc)
  endif()
  if(NOT _bl_wasm_rt)
    list(APPEND _bl_wasm_missing libclang-rt-14-dev-wasm32)
  endif()
  if(_bl_wasm_missing)
    string(REPLACE ";" " " _bl_wasm_missing "${_bl_wasm_missing}")
    if(BOXLINT_WASM STREQUAL "ON")
      message(FATAL_ERROR "BOXLINT_WASM=ON: the WebAssembly build needs the Debian packages "
                          "${_bl_wasm_missing} (apt-get install them, or BOXLINT_WASM=OFF)")
    endif()
    message(STATUS "boxlint: no WebAssembly build (missing: ${_bl_wasm_missing}); "
                   "the wasm_findings test will say skipped")
  else()
    set(BOXLINT_WASM_ENABLED ON)
  endif()
endif()
if(BOXLINT_WASM_ENABLED)
  # Part of `all` where the tests are built (they compare it); else built on demand.
  set(_bl_wasm_all "")
  if(BOXLINT_BUILD_TESTS)
    set(_bl_wasm_all ALL)
  endif()
  add_custom_target(wasm ${_bl_wasm_all}
    COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR}/wasm -B ${PROJECT_BINARY_DIR}/wasm
            -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/wasm/wasi.cmake
            -DCMAKE_C_COMPILER=${BOXLINT_WASM_CLANG} -DCMAKE_BUILD_TYPE=Release
            -DBOXLINT_WASM_SOURCES=${BOXLINT_WASM_SOURCES} -DBOXLINT_WERROR=${BOXLINT_WERROR}
            ${BOXLINT_CLI_WASM_ARGS}
    COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR}/wasm
    BYPRODUCTS ${BOXLINT_WASM_MODULE} ${BOXLINT_WASM_CLI_MODULE}
    COMMENT "WebAssembly build of the library and the command (wasm/)"
    VERBATIM)
endif()
