/* gm_file: writing a whole file so that readers never see half of it. */
#ifndef GM_FILE_H
#define GM_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

/* Writes `len` bytes to a temporary file beside `path` (its name carries
 * the pid, so concurrent writers stay apart), forces it to disk, then
 * renames it onto `path` and forces the folder to disk too: a reader, or
 * a crash, sees the old file or the new one, never a part, and once this
 * returns true the new one is on disk. The error names `path` and what
 * failed (ENOSPC included: nothing is left half written). */
bool gm_file_write_atomic(const char *path, const void *data, size_t len, gm_error *err);

#endif
