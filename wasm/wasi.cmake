# CMake toolchain for the WebAssembly build (wasm/CMakeLists.txt): Debian's clang with the
# wasm32-wasi target, wasi-libc (package wasi-libc: /usr/include/wasm32-wasi, /usr/lib/wasm32-wasi)
# and the compiler's builtins for wasm32 (libclang-rt-14-dev-wasm32).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER clang)
endif()
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_EXECUTABLE_SUFFIX .wasm)
