/* `boxlint policy`: placeholder until issue 3 lands. */
#include "cli.h"

int boxlint_cli_policy(int argc, char **argv, FILE *out, FILE *err) {
  (void)argc; (void)argv; (void)out;
  fputs("boxlint policy: not implemented yet\n", err);
  return 2;
}
