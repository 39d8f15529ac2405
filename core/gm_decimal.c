#include "gm_decimal.h"

#include <errno.h>
#include <stdlib.h>

bool gm_decimal_parse(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    if (text == NULL || *text < '0' || *text > '9') {
        return false;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}
