/* gm_decimal: a command-line number, read strictly. */
#ifndef GM_DECIMAL_H
#define GM_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal integer in [min, max], the whole of `text` (no sign, no
 * spaces; NULL is refused). `out` is set only on success. */
bool gm_decimal_parse(const char *text, uint64_t min, uint64_t max, uint64_t *out);

#endif
