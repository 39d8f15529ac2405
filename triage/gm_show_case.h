/* gm_show_case: a case in a few lines, for a person triaging it (`gmfuzz
 * show`): mode and shape, the lengths, the pool, the SWA part and the
 * mode's query-side inputs. Lists longer than a dozen values are cut to
 * their first and last few, with their length. */
#ifndef GM_SHOW_CASE_H
#define GM_SHOW_CASE_H

#include <stdio.h>

#include "gm_case.h"

/* Lists at most this many values whole; longer ones are abbreviated. */
#define GM_SHOW_CASE_LIST_MAX 12

void gm_show_case(FILE *out, const gm_case *c);

#endif
