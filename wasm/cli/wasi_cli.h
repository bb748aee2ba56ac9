/* Included first in every source of boxlint-cli.wasm (wasm/CMakeLists.txt, -include): what
 * cli/ takes from POSIX that wasi-libc (Debian's, 2022) does not declare, and strerror with the
 * GNU C library's words, so that the command's messages are the native command's byte for byte
 * (wasi-libc's are musl's: "Symbolic link loop" for "Too many levels of symbolic links"...).
 * Both are given by wasi_cli.c. */
#ifndef BOXLINT_WASI_CLI_H
#define BOXLINT_WASI_CLI_H
char *realpath(const char *restrict path, char *restrict resolved);
char *boxlint_wasi_strerror(int err);
#define strerror boxlint_wasi_strerror
#endif
