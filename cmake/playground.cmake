# The playground (playground/, docs/playground.md): a static page that runs the WebAssembly build
# (cmake/wasm.cmake) in the browser. The target `playground` assembles it in
# ${PROJECT_BINARY_DIR}/playground/ (the page, its modules, the npm package's WebAssembly core
# bindings/node/lib/wasm_core.js and boxlint.wasm) and packs that folder as
# ${PROJECT_BINARY_DIR}/boxlint-playground-VERSION.tar.gz; `make playground` builds it, `make
# package` puts the tarball beside the other packages, and the ctest playground (tests/playground/)
# drives it in headless Chromium. Part of `all` where the tests are built; absent without the
# WebAssembly build.
set(BOXLINT_PLAYGROUND_DIR "${PROJECT_BINARY_DIR}/playground")
set(BOXLINT_PLAYGROUND_TARBALL "${PROJECT_BINARY_DIR}/boxlint-playground-${PROJECT_VERSION}.tar.gz")
if(BOXLINT_WASM_ENABLED)
  set(_bl_pg_all "")
  if(BOXLINT_BUILD_TESTS)
    set(_bl_pg_all ALL)
  endif()
  file(GLOB _bl_pg_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/playground/*.html"
       "${PROJECT_SOURCE_DIR}/playground/*.js" "${PROJECT_SOURCE_DIR}/playground/*.css")
  add_custom_target(playground ${_bl_pg_all}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${BOXLINT_PLAYGROUND_DIR}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${BOXLINT_PLAYGROUND_DIR}
    COMMAND ${CMAKE_COMMAND} -E copy ${_bl_pg_files}
            ${PROJECT_SOURCE_DIR}/bindings/node/lib/wasm_core.js ${BOXLINT_WASM_MODULE}
            ${BOXLINT_PLAYGROUND_DIR}
    COMMAND ${CMAKE_COMMAND} -E tar czf ${BOXLINT_PLAYGROUND_TARBALL} --mtime=2000-01-01 playground
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
    BYPRODUCTS ${BOXLINT_PLAYGROUND_TARBALL}
    COMMENT "The playground, assembled in ${BOXLINT_PLAYGROUND_DIR}"
    VERBATIM)
  add_dependencies(playground wasm)
endif()
