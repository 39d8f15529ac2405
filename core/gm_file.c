#include "gm_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Forces the folder holding `path` to disk, so that the rename itself
 * survives a crash of the machine: until then the new name may be lost. */
static bool gm_file_sync_dir(const char *path, gm_error *err) {
    const char *slash = strrchr(path, '/');
    size_t n = slash == NULL ? 1 : (slash == path ? 1 : (size_t)(slash - path));
    char *dir = malloc(n + 1);
    if (dir == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    memcpy(dir, slash == NULL ? "." : path, n);
    dir[n] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    bool ok = fd >= 0 && fsync(fd) == 0;
    int saved = errno;
    if (fd >= 0) {
        close(fd);
    }
    if (!ok) {
        gm_error_set(err, GM_ERR_IO, "%s: cannot sync its folder %s: %s", path, dir,
                     strerror(saved));
    }
    free(dir);
    return ok;
}

static void gm_file_atomic_release(gm_file_atomic *a) {
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    a->f = NULL;
    a->in_place = false;
}

/* Whether `path` is a FIFO, a device or a socket: such a path is written
 * in place. A rename onto it would replace it with a regular file (a test
 * once turned /dev/null into one); it has no "old contents" to keep. */
static bool gm_file_is_special(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Opens the special file itself (a FIFO waits here for its reader). */
static bool gm_file_atomic_begin_in_place(gm_file_atomic *a, gm_error *err) {
    a->in_place = true;
    a->f = fopen(a->path, "wb");
    if (a->f == NULL) {
        gm_error_set(err, GM_ERR_IO, "%s: cannot open it to write: %s", a->path,
                     strerror(errno));
        gm_file_atomic_release(a);
        return false;
    }
    return true;
}

bool gm_file_atomic_begin(gm_file_atomic *a, const char *path, gm_error *err) {
    size_t tmp_size = strlen(path) + 32;
    a->f = NULL;
    a->path = strdup(path);
    a->tmp = malloc(tmp_size);
    if (a->path == NULL || a->tmp == NULL) {
        gm_file_atomic_release(a);
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    a->in_place = false;
    if (gm_file_is_special(path)) {
        return gm_file_atomic_begin_in_place(a, err);
    }
    snprintf(a->tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    a->f = fopen(a->tmp, "wb");
    if (a->f == NULL) {
        gm_error_set(err, GM_ERR_IO, "%s: cannot create %s: %s", path, a->tmp, strerror(errno));
        gm_file_atomic_release(a);
        return false;
    }
    return true;
}

void gm_file_atomic_abort(gm_file_atomic *a) {
    if (a->f != NULL) {
        fclose(a->f);
        if (!a->in_place) {
            remove(a->tmp);
        }
    }
    gm_file_atomic_release(a);
}

/* Flushes and closes the file, forcing its bytes to disk unless it is
 * written in place (fsync of a FIFO or a device fails with EINVAL); false,
 * with errno, when any of it failed. */
static bool gm_file_atomic_close(gm_file_atomic *a) {
    bool ok = !ferror(a->f) && fflush(a->f) == 0 && (a->in_place || fsync(fileno(a->f)) == 0);
    int saved = errno;
    if (fclose(a->f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    a->f = NULL;
    errno = saved;
    return ok;
}

/* Forces the bytes to disk before the rename publishes them, then the
 * rename itself; in place, the bytes flushed and nothing to rename. */
bool gm_file_atomic_commit(gm_file_atomic *a, gm_error *err) {
    bool ok = gm_file_atomic_close(a);
    if (!ok) {
        gm_error_set(err, GM_ERR_IO, "%s: cannot write %s: %s", a->path,
                     a->in_place ? "it" : a->tmp, strerror(errno));
    } else if (!a->in_place && rename(a->tmp, a->path) != 0) {
        ok = gm_error_set(err, GM_ERR_IO, "%s: cannot rename %s onto it: %s", a->path, a->tmp,
                          strerror(errno));
    }
    if (!a->in_place) {
        if (!ok) {
            remove(a->tmp);
        }
        ok = ok && gm_file_sync_dir(a->path, err);
    }
    gm_file_atomic_release(a);
    return ok;
}

bool gm_file_append(FILE *out, const char *from) {
    FILE *in = fopen(from, "rb");
    bool ok = in != NULL;
    char buf[16384];
    size_t got;
    while (ok && (got = fread(buf, 1, sizeof buf, in)) > 0) {
        ok = fwrite(buf, 1, got, out) == got;
    }
    ok = ok && !ferror(in);
    int saved = errno;
    if (in != NULL) {
        fclose(in);
    }
    errno = saved;
    return ok;
}

bool gm_file_write_atomic(const char *path, const void *data, size_t len, gm_error *err) {
    gm_file_atomic a;
    if (!gm_file_atomic_begin(&a, path, err)) {
        return false;
    }
    if (len > 0 && fwrite(data, 1, len, a.f) != len) {
        int saved = errno;
        gm_error_set(err, GM_ERR_IO, "%s: cannot write %s: %s", path,
                     a.in_place ? path : a.tmp, strerror(saved));
        gm_file_atomic_abort(&a);
        return false;
    }
    return gm_file_atomic_commit(&a, err);
}

bool gm_file_make_dirs(const char *dir, gm_error *err) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path || path[0] == '\0') {
        return gm_error_set(err, GM_ERR_IO, "%s: bad folder name (empty or too long)", dir);
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') {
            continue;
        }
        char kept = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            return gm_error_set(err, GM_ERR_IO, "%s: cannot create %s: %s", dir, path,
                                strerror(errno));
        }
        *p = kept;
        if (kept == '\0') {
            return true;
        }
    }
}
