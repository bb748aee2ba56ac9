/* boxlint/egress.h: deprecated, kept for one release; include boxlint/policy.h instead. */
#include "boxlint/policy.h"
