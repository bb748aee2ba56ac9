/* NetworkPolicy entries and policies: placeholder until issue 3 lands. */
#include "internal.h"
