/* gm_file: writing a whole file so that readers never see half of it. */
#ifndef GM_FILE_H
#define GM_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm_error.h"

/* Writes `len` bytes to a temporary file beside `path` (its name carries
 * the pid, so concurrent writers stay apart), forces it to disk, then
 * renames it onto `path` and forces the folder to disk too: a reader, or
 * a crash, sees the old file or the new one, never a part, and once this
 * returns true the new one is on disk. The error names `path` and what
 * failed (ENOSPC included: nothing is left half written).
 * A FIFO, device or socket at `path` (a link to one included) is written
 * in place instead: it is never replaced by a regular file. */
bool gm_file_write_atomic(const char *path, const void *data, size_t len, gm_error *err);

/* Appends the whole file at `from` to `out`; false (errno set) when it
 * cannot be opened, read or written. */
bool gm_file_append(FILE *out, const char *from);

/* The same for a file written in parts: gm_file_atomic_begin opens the
 * temporary file beside `path` (`f`, to write to), gm_file_atomic_commit
 * forces it to disk and renames it onto `path` as above (false: the old
 * file stays, the temporary one is gone), gm_file_atomic_abort drops it.
 * Each of commit and abort ends the write. `in_place`: `path` is a FIFO
 * or a device, `f` writes to it directly (no temporary file). */
typedef struct {
    FILE *f;
    char *path, *tmp;
    bool in_place;
} gm_file_atomic;
bool gm_file_atomic_begin(gm_file_atomic *a, const char *path, gm_error *err);
bool gm_file_atomic_commit(gm_file_atomic *a, gm_error *err);
void gm_file_atomic_abort(gm_file_atomic *a);

/* mkdir -p: creates `dir` and its missing parents; an existing folder is
 * fine. The error names the part that could not be created. */
bool gm_file_make_dirs(const char *dir, gm_error *err);

#endif
