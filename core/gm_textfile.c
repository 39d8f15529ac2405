#include "gm_textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Opens `path` and finds its size; false (err set) unless it is a regular
 * file within the limit. */
static bool gm_textfile_open(const char *path, size_t max_bytes, FILE **out, size_t *size,
                             gm_error *err) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode) || st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
        fclose(f);
        if (!S_ISREG(st.st_mode)) {
            return gm_error_set(err, GM_ERR_IO, "%s: cannot read: not a regular file", path);
        }
        return gm_error_set(err, GM_ERR_LIMIT, "%s: %lld bytes, over the limit of %zu", path,
                            (long long)st.st_size, max_bytes);
    }
    *out = f;
    *size = (size_t)st.st_size;
    return true;
}

bool gm_textfile_read(const char *path, size_t max_bytes, char **text, size_t *len,
                      gm_error *err) {
    FILE *f = NULL;
    size_t size = 0;
    *text = NULL;
    *len = 0;
    if (!gm_textfile_open(path, max_bytes, &f, &size, err)) {
        return false;
    }
    char *buf = malloc(size + 1);
    size_t got = buf != NULL ? fread(buf, 1, size, f) : 0;
    fclose(f);
    if (buf == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory reading it", path);
    }
    if (got != size) {
        free(buf);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read it (it changed while read)", path);
    }
    buf[size] = '\0';
    *text = buf;
    *len = size;
    return true;
}
