/* report_file: writes a finished report atomically (a temporary file next
 * to it, flushed to disk, renamed over it), so that a reader or a CI
 * artifact upload never sees half a report, and a failed write leaves the
 * previous one in place. */
#ifndef REPORT_FILE_H
#define REPORT_FILE_H

#include <stdbool.h>

#include "gm_error.h"
#include "report_text.h"

/* Writes `t` to `path`; refuses a text that ran out of memory while it was
 * built. The error names `path`. */
bool report_file_write(const char *path, const report_text *t, gm_error *err);

#endif
