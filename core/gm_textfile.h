/* gm_textfile: reads a whole file into memory, NUL-terminated, refusing
 * anything that is not a regular file or is over a size limit (hostile or
 * mistaken input must not exhaust memory). */
#ifndef GM_TEXTFILE_H
#define GM_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

/* On success *text (the caller frees it) holds *len bytes and a NUL. The
 * error names the file: GM_ERR_IO (missing, unreadable, a folder),
 * GM_ERR_LIMIT (over max_bytes) or GM_ERR_MEMORY. */
bool gm_textfile_read(const char *path, size_t max_bytes, char **text, size_t *len,
                      gm_error *err);

#endif
