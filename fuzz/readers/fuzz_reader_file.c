#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "fuzz_reader_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_reader_file_path[512];

static void fuzz_reader_file_remove(void) {
    if (fuzz_reader_file_path[0] != '\0') {
        unlink(fuzz_reader_file_path);
    }
}

const char *fuzz_reader_file_put(const uint8_t *data, size_t size) {
    if (fuzz_reader_file_path[0] == '\0') {
        const char *dir = getenv("TMPDIR");
        snprintf(fuzz_reader_file_path, sizeof fuzz_reader_file_path, "%s/gmfuzz-reader-XXXXXX",
                 dir != NULL && dir[0] != '\0' ? dir : "/tmp");
        int fd = mkstemp(fuzz_reader_file_path);
        if (fd < 0) {
            perror("fuzz_reader_file: mkstemp");
            abort();
        }
        close(fd);
        atexit(fuzz_reader_file_remove);
    }
    FILE *f = fopen(fuzz_reader_file_path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("fuzz_reader_file: write");
        abort();
    }
    return fuzz_reader_file_path;
}
