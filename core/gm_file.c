#include "gm_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes the bytes to `tmp` and forces them to disk, so that the rename
 * publishes a complete file. */
static bool gm_file_write_synced(const char *path, const char *tmp, const void *data, size_t len,
                                 gm_error *err) {
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot create %s: %s", path, tmp,
                            strerror(errno));
    }
    bool ok = fwrite(data, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot write %s: %s", path, tmp,
                            strerror(saved));
    }
    return true;
}

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

bool gm_file_write_atomic(const char *path, const void *data, size_t len, gm_error *err) {
    size_t tmp_size = strlen(path) + 32;
    char *tmp = malloc(tmp_size);
    if (tmp == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    bool ok = gm_file_write_synced(path, tmp, data, len, err);
    if (ok && rename(tmp, path) != 0) {
        ok = gm_error_set(err, GM_ERR_IO, "%s: cannot rename %s onto it: %s", path, tmp,
                          strerror(errno));
    }
    if (!ok) {
        remove(tmp);
    }
    free(tmp);
    return ok && gm_file_sync_dir(path, err);
}
