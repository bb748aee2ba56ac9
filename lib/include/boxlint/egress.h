/* boxlint/egress.h: NetworkPolicy parsing, normalisation and decisions (placeholder). */
#ifndef boxlint_EGRESS_H
#define boxlint_EGRESS_H
#include "boxlint/export.h"
#include "boxlint/diag.h"
#endif
