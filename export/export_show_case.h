/* export_show_case: a case in a few lines, for a person triaging it (`gmfuzz
 * show`): mode and shape, the lengths, the pool, the SWA part and the
 * mode's query-side inputs. Lists longer than a dozen values are cut to
 * their first and last few, with their length. */
#ifndef EXPORT_SHOW_CASE_H
#define EXPORT_SHOW_CASE_H

#include <stdio.h>

#include "gm_case.h"

/* Lists at most this many values whole; longer ones are abbreviated. */
#define EXPORT_SHOW_CASE_LIST_MAX 12

void export_show_case(FILE *out, const gm_case *c);

#endif
