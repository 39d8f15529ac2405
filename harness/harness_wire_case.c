#include "harness_wire_case.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every scalar of the case and every array's length (0 and absent are
 * told apart by the `present` bits). */
typedef struct {
    uint32_t magic;
    uint32_t present;
    int32_t mode, page_size, max_context_len;
    int32_t speculative_step_id, num_draft_tokens, q_stride, max_seq_pages;
    int32_t init_kind[GM_BUF_COUNT];
    int64_t init_fill[GM_BUF_COUNT];
    uint64_t init_len[GM_BUF_COUNT];
    uint64_t pool, width, bs, mapping_len, n_out, out_len;
} harness_wire_case_header;

#define HARNESS_WIRE_CASE_MAGIC 0x676d6331u /* "gmc1" */

enum {
    HARNESS_WIRE_HAS_SEQ_LENS_CPU = 1u << 0,
    HARNESS_WIRE_HAS_QLENS = 1u << 1,
    HARNESS_WIRE_HAS_MAX_SEQ_PAGES = 1u << 2,
    HARNESS_WIRE_HAS_SWA = 1u << 3,
    HARNESS_WIRE_SWA_PAGE_TABLE = 1u << 4,
    HARNESS_WIRE_HAS_OUT_CACHE_LOC = 1u << 5,
    HARNESS_WIRE_HAS_OUT_LEN = 1u << 6,
};

/* The arrays in wire order, each with its element size and count. */
typedef struct {
    void **data;
    size_t size;
    size_t count;
} harness_wire_case_array;

static uint32_t harness_wire_case_present(const gm_case *c) {
    return (c->seq_lens_cpu ? HARNESS_WIRE_HAS_SEQ_LENS_CPU : 0) |
           (c->qlens ? HARNESS_WIRE_HAS_QLENS : 0) |
           (c->has_max_seq_pages ? HARNESS_WIRE_HAS_MAX_SEQ_PAGES : 0) |
           (c->has_swa ? HARNESS_WIRE_HAS_SWA : 0) |
           (c->swa.page_table ? HARNESS_WIRE_SWA_PAGE_TABLE : 0) |
           (c->swa.out_cache_loc ? HARNESS_WIRE_HAS_OUT_CACHE_LOC : 0) |
           (c->swa.has_out_len ? HARNESS_WIRE_HAS_OUT_LEN : 0);
}

static void harness_wire_case_fill_header(const gm_case *c, harness_wire_case_header *h) {
    memset(h, 0, sizeof *h);
    h->magic = HARNESS_WIRE_CASE_MAGIC;
    h->present = harness_wire_case_present(c);
    h->mode = (int32_t)c->mode;
    h->page_size = c->page_size;
    h->max_context_len = c->max_context_len;
    h->speculative_step_id = c->speculative_step_id;
    h->num_draft_tokens = c->num_draft_tokens;
    h->q_stride = c->q_stride;
    h->max_seq_pages = c->max_seq_pages;
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        h->init_kind[b] = (int32_t)c->init[b].kind;
        h->init_fill[b] = c->init[b].fill;
        h->init_len[b] = c->init[b].kind == GM_INIT_ARRAY ? c->init[b].len : 0;
    }
    h->pool = c->pool, h->width = c->width, h->bs = c->bs;
    h->mapping_len = c->swa.mapping_len, h->n_out = c->swa.n_out, h->out_len = c->swa.out_len;
}

#define HARNESS_WIRE_CASE_ARRAYS (7 + GM_BUF_COUNT)

/* Every array of `c` in wire order; harness_wire_case_sent says which are sent. */
static size_t harness_wire_case_all_arrays(gm_case *c,
                                           harness_wire_case_array a[HARNESS_WIRE_CASE_ARRAYS]) {
    size_t n = 0;
    a[n++] = (harness_wire_case_array){(void **)&c->req_to_token, 4, c->pool * c->width};
    a[n++] = (harness_wire_case_array){(void **)&c->req_pool_indices, 8, c->bs};
    a[n++] = (harness_wire_case_array){(void **)&c->seq_lens, 8, c->bs};
    a[n++] = (harness_wire_case_array){(void **)&c->seq_lens_cpu, 8, c->bs};
    a[n++] = (harness_wire_case_array){(void **)&c->qlens, 4, c->bs};
    a[n++] = (harness_wire_case_array){(void **)&c->swa.mapping, 8, c->swa.mapping_len};
    a[n++] = (harness_wire_case_array){(void **)&c->swa.out_cache_loc, 8, c->swa.n_out};
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        size_t len = c->init[b].kind == GM_INIT_ARRAY ? c->init[b].len : 0;
        a[n++] = (harness_wire_case_array){(void **)&c->init[b].values, 8, len};
    }
    return n;
}

/* Whether array k of the wire order is present per the header. */
static bool harness_wire_case_sent(const harness_wire_case_header *h, size_t k) {
    switch (k) {
    case 3:
        return h->present & HARNESS_WIRE_HAS_SEQ_LENS_CPU;
    case 4:
        return h->present & HARNESS_WIRE_HAS_QLENS;
    case 5:
        return h->present & HARNESS_WIRE_HAS_SWA;
    case 6:
        return h->present & HARNESS_WIRE_HAS_OUT_CACHE_LOC;
    default: return k < 3 || h->init_kind[k - 7] == GM_INIT_ARRAY;
    }
}

char *harness_wire_case_encode(const gm_case *c, size_t *len) {
    harness_wire_case_header h;
    harness_wire_case_fill_header(c, &h);
    gm_case view = *c; /* the array table takes addresses of the fields */
    harness_wire_case_array a[HARNESS_WIRE_CASE_ARRAYS];
    size_t n = harness_wire_case_all_arrays(&view, a), total = sizeof h;
    for (size_t k = 0; k < n; k++) {
        total += harness_wire_case_sent(&h, k) ? a[k].size * a[k].count : 0;
    }
    char *out = malloc(total);
    if (out == NULL) {
        return NULL;
    }
    memcpy(out, &h, sizeof h);
    size_t at = sizeof h;
    for (size_t k = 0; k < n; k++) {
        if (harness_wire_case_sent(&h, k) && a[k].count > 0) {
            memcpy(out + at, *a[k].data, a[k].size * a[k].count);
            at += a[k].size * a[k].count;
        }
    }
    *len = total;
    return out;
}

static void harness_wire_case_apply_header(const harness_wire_case_header *h, gm_case *c) {
    c->mode = (gm_mode)h->mode;
    c->page_size = h->page_size;
    c->max_context_len = h->max_context_len;
    c->speculative_step_id = h->speculative_step_id;
    c->num_draft_tokens = h->num_draft_tokens;
    c->q_stride = h->q_stride;
    c->has_max_seq_pages = h->present & HARNESS_WIRE_HAS_MAX_SEQ_PAGES;
    c->max_seq_pages = h->max_seq_pages;
    c->has_swa = h->present & HARNESS_WIRE_HAS_SWA;
    c->swa.page_table = h->present & HARNESS_WIRE_SWA_PAGE_TABLE;
    c->swa.has_out_len = h->present & HARNESS_WIRE_HAS_OUT_LEN;
    c->pool = h->pool, c->width = h->width, c->bs = h->bs;
    c->swa.mapping_len = h->mapping_len, c->swa.n_out = h->n_out, c->swa.out_len = h->out_len;
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        c->init[b].kind = (gm_init_kind)h->init_kind[b];
        c->init[b].fill = h->init_fill[b];
        c->init[b].len = h->init_len[b];
    }
}

bool harness_wire_case_decode(const char *bytes, size_t len, gm_case *c, gm_error *err) {
    harness_wire_case_header h;
    if (len < sizeof h) {
        return gm_error_set(err, GM_ERR_FORMAT, "worker: truncated case");
    }
    memcpy(&h, bytes, sizeof h);
    if (h.magic != HARNESS_WIRE_CASE_MAGIC) {
        return gm_error_set(err, GM_ERR_FORMAT, "worker: not an encoded case");
    }
    harness_wire_case_apply_header(&h, c);
    harness_wire_case_array a[HARNESS_WIRE_CASE_ARRAYS];
    size_t n = harness_wire_case_all_arrays(c, a), at = sizeof h;
    for (size_t k = 0; k < n; k++) {
        if (!harness_wire_case_sent(&h, k)) {
            continue;
        }
        size_t bytes_k = a[k].size * a[k].count;
        if (bytes_k > len - at) {
            return gm_error_set(err, GM_ERR_FORMAT, "worker: truncated case arrays");
        }
        *a[k].data = malloc(bytes_k + 1); /* +1: a present empty array is not NULL */
        if (*a[k].data == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "worker: out of memory");
        }
        memcpy(*a[k].data, bytes + at, bytes_k);
        at += bytes_k;
    }
    return at == len || gm_error_set(err, GM_ERR_FORMAT, "worker: trailing bytes after a case");
}

static size_t harness_wire_case_outputs_bytes(const gm_buffer *b) {
    return gm_buffer_count(b) * (b->is_int64 ? 8 : 4);
}

char *harness_wire_case_outputs_encode(const gm_outputs *o, size_t *len) {
    uint32_t error_len = o->error ? (uint32_t)strlen(o->error) : 0;
    size_t total = 5 + error_len;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        total += harness_wire_case_outputs_bytes(&o->buf[id]);
    }
    char *p = malloc(total + 1);
    if (p == NULL) {
        return NULL;
    }
    p[0] = o->error != NULL;
    memcpy(p + 1, &error_len, 4);
    memcpy(p + 5, o->error ? o->error : "", error_len);
    size_t at = 5 + error_len;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        size_t bytes = harness_wire_case_outputs_bytes(&o->buf[id]);
        if (bytes > 0) {
            memcpy(p + at, o->buf[id].data, bytes);
        }
        at += bytes;
    }
    *len = total;
    return p;
}

bool harness_wire_case_outputs_decode(const char *p, size_t len, gm_outputs *out) {
    uint32_t error_len = 0;
    if (len < 5) {
        return false;
    }
    memcpy(&error_len, p + 1, 4);
    size_t at = 5 + (size_t)error_len;
    if (at > len) {
        return false;
    }
    if (p[0]) {
        gm_outputs_set_error(out, "%.*s", (int)error_len, p + 5);
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        size_t bytes = harness_wire_case_outputs_bytes(&out->buf[id]);
        if (bytes > len - at) {
            return false;
        }
        if (bytes > 0) {
            memcpy(out->buf[id].data, p + at, bytes);
        }
        at += bytes;
    }
    return at == len;
}
