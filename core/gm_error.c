#include "gm_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool gm_error_set(gm_error *err, gm_error_code code, const char *fmt, ...) {
    if (err == NULL) {
        return false;
    }
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

void gm_error_prefix(gm_error *err, const char *prefix) {
    if (err == NULL || prefix == NULL) {
        return;
    }
    /* Built by hand: snprintf of a buffer into itself is undefined, and
     * gcc rightly warns that the result may be cut (it is, at the end). */
    char old[GM_ERROR_MSG_MAX];
    memcpy(old, err->msg, sizeof old);
    size_t n = strlen(prefix);
    if (n > sizeof err->msg - 3) {
        n = sizeof err->msg - 3;
    }
    memcpy(err->msg, prefix, n);
    memcpy(err->msg + n, ": ", 2);
    size_t rest = sizeof err->msg - n - 3;
    size_t old_len = strnlen(old, sizeof old - 1);
    if (old_len > rest) {
        old_len = rest;
    }
    memcpy(err->msg + n + 2, old, old_len);
    err->msg[n + 2 + old_len] = '\0';
}

void gm_error_clear(gm_error *err) {
    if (err != NULL) {
        err->code = GM_ERR_NONE;
        err->msg[0] = '\0';
    }
}

const char *gm_error_code_name(gm_error_code code) {
    switch (code) {
    case GM_ERR_NONE: return "none";
    case GM_ERR_IO: return "io";
    case GM_ERR_FORMAT: return "format";
    case GM_ERR_LIMIT: return "limit";
    case GM_ERR_MEMORY: return "memory";
    case GM_ERR_USAGE: return "usage";
    case GM_ERR_DEVICE: return "device";
    case GM_ERR_START: return "start";
    }
    return "unknown";
}
