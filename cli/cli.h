/* Shared between the CLI's source files. */
#ifndef BOXLINT_CLI_H
#define BOXLINT_CLI_H
#include <stdio.h>

/* `boxlint policy ...`: argv[0] is "policy". Returns the process exit code (0, 1 or 2). */
int boxlint_cli_policy(int argc, char **argv, FILE *out, FILE *err);

#endif
