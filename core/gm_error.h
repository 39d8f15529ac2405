/* gm_error: errors as values.
 *
 * Every fallible function in gmfuzz takes a `gm_error *` as its last
 * argument and returns false (or NULL) on failure after filling it in.
 * The message is complete on its own: it names the file, the field and the
 * index where the problem is, so callers print it verbatim.
 */
#ifndef GM_ERROR_H
#define GM_ERROR_H

#include <stdbool.h>

typedef enum {
    GM_ERR_NONE = 0,
    GM_ERR_IO,      /* a file could not be read or written */
    GM_ERR_FORMAT,  /* a JSON document broke a rule of the file formats */
    GM_ERR_LIMIT,   /* a document is over the reader's size limits */
    GM_ERR_MEMORY,  /* an allocation failed */
    GM_ERR_USAGE,   /* a caller passed arguments that make no sense */
    GM_ERR_DEVICE,  /* the GPU backend failed or is unavailable */
    GM_ERR_START,   /* an external target did not finish its start-up in time */
} gm_error_code;

#define GM_ERROR_MSG_MAX 512

typedef struct {
    gm_error_code code;
    char msg[GM_ERROR_MSG_MAX];
} gm_error;

/* Sets code and a printf-style message; returns false so that callers can
 * write `return gm_error_set(err, ...);`. `err` may be NULL. */
bool gm_error_set(gm_error *err, gm_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an existing message (for adding a file name). */
void gm_error_prefix(gm_error *err, const char *prefix);

void gm_error_clear(gm_error *err);

const char *gm_error_code_name(gm_error_code code);

#endif
