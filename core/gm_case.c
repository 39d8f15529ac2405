#include "gm_case.h"

#include <stdlib.h>
#include <string.h>

static const char *const gm_case_mode_names[GM_MODE_COUNT] = {
    "decode", "draft_decode", "target_verify", "draft_extend", "draft_extend_v2",
};

static const char *const gm_case_buf_names[GM_BUF_COUNT] = {
    "cache_seqlens", "cu_seqlens_k", "cu_seqlens_q",
    "page_table", "swa_page_table", "swa_out_cache_loc",
};

const char *gm_mode_name(gm_mode mode) {
    return (unsigned)mode < GM_MODE_COUNT ? gm_case_mode_names[mode] : "?";
}

bool gm_mode_from_name(const char *name, gm_mode *out) {
    for (int m = 0; m < GM_MODE_COUNT; m++) {
        if (strcmp(name, gm_case_mode_names[m]) == 0) {
            *out = (gm_mode)m;
            return true;
        }
    }
    return false;
}

const char *gm_buf_name(gm_buf_id id) {
    return (unsigned)id < GM_BUF_COUNT ? gm_case_buf_names[id] : "?";
}

bool gm_buf_is_int64(gm_buf_id id) { return id == GM_BUF_SWA_OUT_CACHE_LOC; }

void gm_case_init(gm_case *c) {
    memset(c, 0, sizeof *c);
    c->mode = GM_MODE_DECODE;
    c->page_size = 1;
    c->max_context_len = 1;
}

void gm_case_free(gm_case *c) {
    free(c->name);
    free(c->req_to_token);
    free(c->req_pool_indices);
    free(c->seq_lens);
    free(c->seq_lens_cpu);
    free(c->qlens);
    free(c->swa.mapping);
    free(c->swa.out_cache_loc);
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        free(c->init[b].values);
    }
    gm_case_init(c);
}

/* Duplicates `n` elements of `size` bytes into *ok-tracked storage: NULL
 * stays NULL, and a failed allocation clears *ok. */
static void *gm_case_dup(const void *src, size_t n, size_t size, bool *ok) {
    if (src == NULL || !*ok) {
        return NULL;
    }
    void *dst = malloc(n * size + 1); /* +1: a zero-length copy is still "present" */
    if (dst == NULL) {
        *ok = false;
        return NULL;
    }
    if (n > 0) {
        memcpy(dst, src, n * size);
    }
    return dst;
}

bool gm_case_copy(gm_case *dst, const gm_case *src, gm_error *err) {
    bool ok = true;
    *dst = *src;
    dst->name = gm_case_dup(src->name, src->name ? strlen(src->name) + 1 : 0, 1, &ok);
    dst->req_to_token = gm_case_dup(src->req_to_token, src->pool * src->width, 4, &ok);
    dst->req_pool_indices = gm_case_dup(src->req_pool_indices, src->bs, 8, &ok);
    dst->seq_lens = gm_case_dup(src->seq_lens, src->bs, 8, &ok);
    dst->seq_lens_cpu = gm_case_dup(src->seq_lens_cpu, src->bs, 8, &ok);
    dst->qlens = gm_case_dup(src->qlens, src->bs, 4, &ok);
    dst->swa.mapping = gm_case_dup(src->swa.mapping, src->swa.mapping_len, 8, &ok);
    dst->swa.out_cache_loc = gm_case_dup(src->swa.out_cache_loc, src->swa.n_out, 8, &ok);
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        dst->init[b].values = gm_case_dup(src->init[b].values, src->init[b].len, 8, &ok);
    }
    if (!ok) {
        /* Every owned pointer was reassigned above: a copy, or NULL once
         * an allocation failed, so freeing releases exactly the copies. */
        gm_case_free(dst);
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory copying a case");
    }
    return true;
}

size_t gm_case_max_num_pages(const gm_case *c) {
    if (c->page_size < 1 || c->max_context_len < 1) {
        return 0;
    }
    size_t p = (size_t)c->page_size;
    return ((size_t)c->max_context_len + p - 1) / p;
}

int64_t gm_case_seqlen_offset(const gm_case *c) {
    switch (c->mode) {
    case GM_MODE_DRAFT_DECODE: return (int64_t)c->speculative_step_id + 1;
    case GM_MODE_TARGET_VERIFY: return c->num_draft_tokens;
    default: return 0;
    }
}

bool gm_case_buf_shape(const gm_case *c, gm_buf_id id, int *rank, size_t dims[2]) {
    *rank = 1;
    dims[1] = 1;
    switch (id) {
    case GM_BUF_CACHE_SEQLENS: dims[0] = c->bs; return true;
    case GM_BUF_CU_SEQLENS_K:
    case GM_BUF_CU_SEQLENS_Q: dims[0] = c->bs + 1; return true;
    case GM_BUF_PAGE_TABLE:
    case GM_BUF_SWA_PAGE_TABLE:
        if (id == GM_BUF_SWA_PAGE_TABLE && (!c->has_swa || !c->swa.page_table)) {
            return false;
        }
        *rank = 2;
        dims[0] = c->bs;
        dims[1] = gm_case_max_num_pages(c);
        return true;
    case GM_BUF_SWA_OUT_CACHE_LOC:
        if (!c->has_swa || !c->swa.has_out_len) {
            return false;
        }
        dims[0] = c->swa.out_len;
        return true;
    case GM_BUF_COUNT: break;
    }
    return false;
}

static bool gm_case_check_init(const gm_case *c, gm_buf_id id, gm_error *err) {
    const gm_init *in = &c->init[id];
    if (in->kind == GM_INIT_DEFAULT) {
        return true;
    }
    int rank;
    size_t dims[2];
    if (!gm_case_buf_shape(c, id, &rank, dims)) {
        return gm_error_set(err, GM_ERR_FORMAT, "init.%s: the case has no %s buffer",
                            gm_buf_name(id), gm_buf_name(id));
    }
    if (in->kind == GM_INIT_ARRAY && in->len != dims[0] * dims[1]) {
        return gm_error_set(err, GM_ERR_FORMAT, "init.%s: %zu elements, the buffer has %zu",
                            gm_buf_name(id), in->len, dims[0] * dims[1]);
    }
    return true;
}

bool gm_case_check(const gm_case *c, gm_error *err) {
    if ((unsigned)c->mode >= GM_MODE_COUNT) {
        return gm_error_set(err, GM_ERR_FORMAT, "mode: unknown mode %d", (int)c->mode);
    }
    if (c->page_size < 1) {
        return gm_error_set(err, GM_ERR_FORMAT, "page_size: %d is below 1", (int)c->page_size);
    }
    if (c->max_context_len < 1) {
        return gm_error_set(err, GM_ERR_FORMAT, "max_context_len: %d is below 1",
                            (int)c->max_context_len);
    }
    if (c->pool < 1 || c->req_to_token == NULL) {
        return gm_error_set(err, GM_ERR_FORMAT, "req_to_token: needs at least one row");
    }
    if (c->width < (size_t)c->max_context_len) {
        return gm_error_set(err, GM_ERR_FORMAT,
                            "req_to_token: width %zu is below max_context_len %d", c->width,
                            (int)c->max_context_len);
    }
    if (c->bs > 0 && (c->req_pool_indices == NULL || c->seq_lens == NULL)) {
        return gm_error_set(err, GM_ERR_FORMAT, "req_pool_indices, seq_lens: missing");
    }
    if (c->mode == GM_MODE_DRAFT_EXTEND && c->qlens == NULL) {
        return gm_error_set(err, GM_ERR_FORMAT, "qlens: required in mode draft_extend");
    }
    if (c->has_max_seq_pages && c->max_seq_pages < 0) {
        return gm_error_set(err, GM_ERR_FORMAT, "max_seq_pages: %d is below 0",
                            (int)c->max_seq_pages);
    }
    if (c->has_swa && (c->swa.mapping == NULL || c->swa.mapping_len < 1)) {
        return gm_error_set(err, GM_ERR_FORMAT, "swa.mapping: needs at least one element");
    }
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        if (!gm_case_check_init(c, (gm_buf_id)b, err)) {
            return false;
        }
    }
    return true;
}
