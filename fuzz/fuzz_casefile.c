#include "fuzz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_decode.h"

uint8_t *fuzz_casefile_slurp(const char *path, size_t *size, gm_error *err) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        gm_error_set(err, GM_ERR_IO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *data = malloc(cap);
    while (data != NULL) {
        n += fread(data + n, 1, cap - n, f);
        if (n < cap) {
            break;
        }
        uint8_t *grown = cap < ((size_t)1 << 30) ? realloc(data, cap * 2) : NULL;
        if (grown == NULL) {
            free(data);
            data = NULL;
            break;
        }
        data = grown;
        cap *= 2;
    }
    bool bad = data == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        gm_error_set(err, GM_ERR_IO, "%s: cannot read it whole (a fuzzer input is < 1 GiB)",
                     path);
        return NULL;
    }
    *size = n;
    return data;
}

/* Whether the file starts, after JSON whitespace, with '{' (its first
 * 4 KiB are enough: a document's whitespace does not run longer in practice,
 * and a miss only means the bytes are decoded as an engine's input). */
static bool fuzz_casefile_looks_json(const char *path) {
    FILE *f = fopen(path, "rb");
    unsigned char head[4096];
    size_t n = f ? fread(head, 1, sizeof head, f) : 0, i = 0;
    if (f != NULL) {
        fclose(f);
    }
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) {
        i++;
    }
    return i < n && head[i] == '{';
}

bool fuzz_casefile_read(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err) {
    if (fuzz_casefile_looks_json(path)) {
        return gm_json_read_file(path, lim, doc, err);
    }
    size_t size = 0;
    uint8_t *bytes = fuzz_casefile_slurp(path, &size, err);
    if (bytes == NULL) {
        return false;
    }
    gm_doc_init(doc); /* as the JSON reader does: the caller's doc may be fresh */
    doc->kind = GM_DOC_CASE;
    bool ok = fuzz_decode(bytes, size, &doc->c, err);
    free(bytes);
    char name[1100];
    snprintf(name, sizeof name, "decoded from %.1000s", path);
    size_t len = strlen(name) + 1;
    doc->c.name = ok ? malloc(len) : NULL;
    if (doc->c.name != NULL) {
        memcpy(doc->c.name, name, len);
    }
    return ok;
}
