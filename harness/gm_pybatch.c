/* gm_pybatch: the CALL payload of docs/TARGETS.md, built in one growing
 * buffer, with the places where each call's OUT tensors are read back. */
#include "gm_pybatch.h"

#include <stdlib.h>
#include <string.h>

static bool gm_pybatch_reserve(gm_pybatch *b, size_t more) {
    if (b->failed) {
        return false;
    }
    if (b->len + more <= b->cap) {
        return true;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) {
        cap *= 2;
    }
    char *bytes = realloc(b->bytes, cap);
    if (bytes == NULL) {
        b->failed = true;
        return false;
    }
    b->bytes = bytes;
    b->cap = cap;
    return true;
}

static void gm_pybatch_put(gm_pybatch *b, const void *data, size_t n) {
    if (gm_pybatch_reserve(b, n)) {
        memcpy(b->bytes + b->len, data, n);
        b->len += n;
    }
}

static void gm_pybatch_u32_at(gm_pybatch *b, size_t at, uint32_t v) {
    if (!b->failed) {
        memcpy(b->bytes + at, &v, 4); /* little-endian hosts only (x86-64, arm64) */
    }
}

bool gm_pybatch_new(gm_pybatch **out, gm_error *err) {
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of calls");
    }
    gm_pybatch_clear(*out);
    return true;
}

void gm_pybatch_free(gm_pybatch *b) {
    if (b != NULL) {
        free(b->bytes);
        free(b->outs);
        free(b->call_first_out);
        free(b);
    }
}

void gm_pybatch_clear(gm_pybatch *b) {
    b->len = 0;
    b->count = 0;
    b->n_outs = 0;
    b->failed = false;
    uint32_t zero = 0;
    gm_pybatch_put(b, &zero, 4); /* the count, patched as calls begin */
}

size_t gm_pybatch_count(const gm_pybatch *b) { return b->count; }
bool gm_pybatch_ok(const gm_pybatch *b) { return !b->failed; }

static bool gm_pybatch_grow_calls(gm_pybatch *b) {
    if (b->count < b->calls_cap) {
        return true;
    }
    size_t cap = b->calls_cap ? b->calls_cap * 2 : 64;
    size_t *first = realloc(b->call_first_out, (cap + 1) * sizeof *first);
    if (first == NULL) {
        b->failed = true;
        return false;
    }
    b->call_first_out = first;
    b->calls_cap = cap;
    return true;
}

void gm_pybatch_begin(gm_pybatch *b) {
    if (!gm_pybatch_grow_calls(b)) {
        return;
    }
    b->call_first_out[b->count] = b->n_outs;
    b->count++;
    b->call_first_out[b->count] = b->n_outs;
    gm_pybatch_u32_at(b, 0, (uint32_t)b->count);
    b->args_at = b->len;
    b->n_args = 0;
    uint32_t zero = 0;
    gm_pybatch_put(b, &zero, 4);
}

/* The name and kind of the next argument of the current call. */
static void gm_pybatch_arg(gm_pybatch *b, const char *name, gm_pyarg_kind kind) {
    uint16_t n = (uint16_t)strlen(name);
    uint8_t k = (uint8_t)kind;
    gm_pybatch_put(b, &n, 2);
    gm_pybatch_put(b, name, n);
    gm_pybatch_put(b, &k, 1);
    gm_pybatch_u32_at(b, b->args_at, ++b->n_args);
}

void gm_pybatch_int(gm_pybatch *b, const char *name, int64_t v) {
    gm_pybatch_arg(b, name, GM_PYARG_INT);
    gm_pybatch_put(b, &v, 8);
}

void gm_pybatch_str(gm_pybatch *b, const char *name, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    gm_pybatch_arg(b, name, GM_PYARG_STR);
    gm_pybatch_put(b, &n, 4);
    gm_pybatch_put(b, s, n);
}

void gm_pybatch_none(gm_pybatch *b, const char *name) { gm_pybatch_arg(b, name, GM_PYARG_NONE); }

static void gm_pybatch_add_out(gm_pybatch *b, void *data, size_t bytes) {
    if (b->n_outs == b->outs_cap) {
        size_t cap = b->outs_cap ? b->outs_cap * 2 : 256;
        gm_pybatch_out *outs = realloc(b->outs, cap * sizeof *outs);
        if (outs == NULL) {
            b->failed = true;
            return;
        }
        b->outs = outs;
        b->outs_cap = cap;
    }
    b->outs[b->n_outs++] = (gm_pybatch_out){data, bytes};
    b->call_first_out[b->count] = b->n_outs;
}

void gm_pybatch_tensor(gm_pybatch *b, const char *name, gm_pyarg_kind kind, int elem_size,
                       int rank, const size_t dims[2], void *data) {
    uint8_t head[2] = {(uint8_t)elem_size, (uint8_t)rank};
    size_t count = rank == 2 ? dims[0] * dims[1] : dims[0];
    gm_pybatch_arg(b, name, kind);
    gm_pybatch_put(b, head, 2);
    for (int k = 0; k < rank; k++) {
        uint64_t d = dims[k];
        gm_pybatch_put(b, &d, 8);
    }
    if (count > 0) {
        gm_pybatch_put(b, data, count * (size_t)elem_size);
    }
    if (kind == GM_PYARG_OUT) {
        gm_pybatch_add_out(b, data, count * (size_t)elem_size);
    }
}
