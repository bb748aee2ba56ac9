/* tsan_shared_objects: shared_objects.h under ThreadSanitizer (built by run.sh with the library
 * compiled with -fsanitize=thread). The shared objects' arena is used as it is, unsynchronised,
 * so that a call from a worker thread is both counted and, with two at once, a race TSan
 * reports. Rounds per thread: BOXLINT_TSAN_ROUNDS (default 200). */
#include <stdio.h>
#include <stdlib.h>
#include "shared_objects.h"

int main(void) {
  const char *env = getenv("BOXLINT_TSAN_ROUNDS");
  int rounds = env && atoi(env) > 0 ? atoi(env) : 200;
  shared_result res;
  int rc = shared_objects_run(8, rounds, 0, &res);
  shared_result_print(&res, stdout);
  puts(rc ? "FAILED: the shared objects' allocator was called during shared use, or a result "
            "differed"
          : "ok: no call of the shared objects' allocator while shared, every result as the "
            "reference");
  return rc;
}
