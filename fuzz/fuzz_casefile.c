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

bool fuzz_casefile_is_raw(const char *path, const uint8_t *head, size_t n) {
    size_t len = strlen(path);
    if (len >= 5 && strcmp(path + len - 5, ".json") == 0) {
        return false; /* named a document: read as one, however broken */
    }
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) {
        i++;
    }
    if (i == n) {
        return false; /* empty, or only whitespace: a document that is missing */
    }
    /* The bytes a JSON text can start with (RFC 8259: a value); anything
     * else cannot be a document, broken or not. */
    return head[i] == '\0' || strchr("{[\"-0123456789tfn", head[i]) == NULL; /* NUL: the end */
}

/* The first 4 KiB of the file, for fuzz_casefile_is_raw (a document's
 * leading whitespace does not run longer in practice; a file that is only
 * whitespace that far is read as JSON and said to be malformed). */
static bool fuzz_casefile_looks_raw(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t head[4096];
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f == NULL) {
        return false; /* the JSON reader says why it cannot be read */
    }
    fclose(f);
    return fuzz_casefile_is_raw(path, head, n);
}

bool fuzz_casefile_read_raw(const char *path, gm_doc *doc, gm_error *err) {
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

bool fuzz_casefile_read(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err) {
    if (fuzz_casefile_looks_raw(path)) {
        return fuzz_casefile_read_raw(path, doc, err);
    }
    if (gm_json_read_file(path, lim, doc, err)) {
        return true;
    }
    size_t len = strlen(path);
    bool named_json = len >= 5 && strcmp(path + len - 5, ".json") == 0;
    if (err->code == GM_ERR_FORMAT && !named_json) {
        size_t at = strlen(err->msg);
        snprintf(err->msg + at, sizeof err->msg - at,
                 " (read as JSON; an engine's raw input is read with --raw)");
    }
    return false;
}
