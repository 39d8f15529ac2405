#include "minimize_shrink.h"

#include <stdlib.h>
#include <string.h>

/* Where an index into a sequence of `len` elements lands once the sequence
 * keeps only some of its elements (`new_pos` of each kept one, `kept` of
 * them): a reference to a kept element follows it, a negative one stays
 * negative (Python wrap onto the same element), an out-of-range one stays
 * out of range by the same distance on the same side. */
typedef struct {
    size_t len;
    size_t kept;
    const size_t *new_pos; /* [len]; meaningful for kept elements only */
} minimize_shrink_renumbering;

static int64_t minimize_shrink_renumber(const minimize_shrink_renumbering *rn, int64_t v) {
    int64_t len = (int64_t)rn->len, kept = (int64_t)rn->kept;
    if (v >= len) {
        return v - (len - kept);
    }
    if (v < -len) {
        return v + (len - kept);
    }
    if (v >= 0) {
        return (int64_t)rn->new_pos[v];
    }
    return (int64_t)rn->new_pos[len + v] - kept;
}

/* Marks the element an index reaches the Python way (nothing when out of range). */
static void minimize_shrink_mark(bool *used, size_t len, int64_t v) {
    if (v >= 0 && (uint64_t)v < len) {
        used[v] = true;
    } else if (v < 0 && (uint64_t)0 - (uint64_t)v <= len) {
        used[len - (size_t)((uint64_t)0 - (uint64_t)v)] = true;
    }
}

/* Numbers the used elements in order; returns how many there are. */
static size_t minimize_shrink_number(const bool *used, size_t len, size_t *new_pos) {
    size_t kept = 0;
    for (size_t k = 0; k < len; k++) {
        new_pos[k] = used[k] ? kept++ : 0;
    }
    return kept;
}

static bool minimize_shrink_no_memory(gm_case *out, gm_error *err) {
    gm_case_free(out);
    return gm_error_set(err, GM_ERR_MEMORY, "out of memory shrinking a case");
}

/* Replaces *array (n elements of `size` bytes) by a copy without [lo, hi).
 * NULL stays NULL; an empty result is still allocated ("present"). */
static bool minimize_shrink_cut(void *array_ptr, size_t n, size_t size, size_t lo, size_t hi) {
    void **array = array_ptr;
    if (*array == NULL) {
        return true;
    }
    size_t keep = n - (hi - lo);
    char *dst = malloc(keep * size + 1);
    if (dst == NULL) {
        return false;
    }
    const char *s = *array;
    memcpy(dst, s, lo * size);
    memcpy(dst + lo * size, s + hi * size, (n - hi) * size);
    free(*array);
    *array = dst;
    return true;
}

static bool minimize_shrink_cut_init(gm_init *in, size_t lo, size_t hi) {
    if (in->kind != GM_INIT_ARRAY) {
        return true;
    }
    if (!minimize_shrink_cut(&in->values, in->len, sizeof(int64_t), lo, hi)) {
        return false;
    }
    in->len -= hi - lo;
    return true;
}

/* An init array of `rows` rows keeps the first `width` of its `old_width` columns. */
static bool minimize_shrink_init_columns(gm_init *in, size_t rows, size_t old_width, size_t width) {
    if (in->kind != GM_INIT_ARRAY) {
        return true;
    }
    int64_t *values = malloc(rows * width * sizeof *values + 1);
    if (values == NULL) {
        return false;
    }
    for (size_t r = 0; r < rows; r++) {
        memcpy(values + r * width, in->values + r * old_width, width * sizeof *values);
    }
    free(in->values);
    in->values = values;
    in->len = rows * width;
    return true;
}

/* req_to_token becomes `rows` rows of `width`: row k is src row from[k]
 * (all of them when from is NULL), cut or zero-padded to the width. */
static bool minimize_shrink_tokens(gm_case *out, const gm_case *src, const size_t *from,
                                   size_t rows, size_t width) {
    int32_t *tokens = calloc(rows * width + 1, sizeof *tokens);
    if (tokens == NULL) {
        return false;
    }
    size_t copy = width < src->width ? width : src->width;
    for (size_t k = 0; k < rows; k++) {
        size_t row = from != NULL ? from[k] : k;
        memcpy(tokens + k * width, src->req_to_token + row * src->width, copy * sizeof *tokens);
    }
    free(out->req_to_token);
    out->req_to_token = tokens;
    out->pool = rows;
    out->width = width;
    return true;
}

bool minimize_shrink_drop_rows(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                               gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    size_t n = src->bs, w = gm_case_max_num_pages(src);
    gm_init *init = out->init;
    bool ok = minimize_shrink_cut(&out->req_pool_indices, n, sizeof(int64_t), lo, hi) &&
              minimize_shrink_cut(&out->seq_lens, n, sizeof(int64_t), lo, hi) &&
              minimize_shrink_cut(&out->seq_lens_cpu, n, sizeof(int64_t), lo, hi) &&
              minimize_shrink_cut(&out->qlens, n, sizeof(int32_t), lo, hi) &&
              minimize_shrink_cut_init(&init[GM_BUF_CACHE_SEQLENS], lo, hi) &&
              /* cu_seqlens_* hold bs + 1 entries: [0] stays */
              minimize_shrink_cut_init(&init[GM_BUF_CU_SEQLENS_K], lo + 1, hi + 1) &&
              minimize_shrink_cut_init(&init[GM_BUF_CU_SEQLENS_Q], lo + 1, hi + 1) &&
              minimize_shrink_cut_init(&init[GM_BUF_PAGE_TABLE], lo * w, hi * w) &&
              minimize_shrink_cut_init(&init[GM_BUF_SWA_PAGE_TABLE], lo * w, hi * w);
    out->bs = n - (hi - lo);
    return ok || minimize_shrink_no_memory(out, err);
}

/* v less the part of [0, v) that falls in [lo, hi) (for v >= 0). */
static int64_t minimize_shrink_minus_overlap(int64_t v, int64_t lo, int64_t hi) {
    if (v <= lo) {
        return v;
    }
    return v - ((v < hi ? v : hi) - lo);
}

/* Removes positions [lo, hi) (clamped to the width) from every row. */
static bool minimize_shrink_cut_positions(gm_case *out, const gm_case *src, size_t lo, size_t hi) {
    hi = hi < src->width ? hi : src->width;
    size_t width = src->width - (hi - lo);
    int32_t *tokens = malloc(src->pool * width * sizeof *tokens + 1);
    if (tokens == NULL) {
        return false;
    }
    for (size_t r = 0; r < src->pool; r++) {
        const int32_t *row = src->req_to_token + r * src->width;
        memcpy(tokens + r * width, row, lo * sizeof *tokens);
        memcpy(tokens + r * width + lo, row + hi, (src->width - hi) * sizeof *tokens);
    }
    free(out->req_to_token);
    out->req_to_token = tokens;
    out->width = width;
    return true;
}

/* Removes page-table columns [lo, hi) from an init array of `rows` rows. */
static bool minimize_shrink_cut_init_columns(gm_init *in, size_t rows, size_t width, size_t lo,
                                             size_t hi) {
    if (in->kind != GM_INIT_ARRAY) {
        return true;
    }
    size_t kept = width - (hi - lo);
    int64_t *values = malloc(rows * kept * sizeof *values + 1);
    if (values == NULL) {
        return false;
    }
    for (size_t r = 0; r < rows; r++) {
        const int64_t *row = in->values + r * width;
        memcpy(values + r * kept, row, lo * sizeof *values);
        memcpy(values + r * kept + lo, row + hi, (width - hi) * sizeof *values);
    }
    free(in->values);
    in->values = values;
    in->len = rows * kept;
    return true;
}

bool minimize_shrink_drop_pages(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                                gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    int64_t page = src->page_size, first = (int64_t)lo * page, end = (int64_t)hi * page;
    size_t width = gm_case_max_num_pages(src);
    /* all pages gone: max_context_len 0, which gm_case_check refuses */
    out->max_context_len = (int32_t)minimize_shrink_minus_overlap(src->max_context_len, first, end);
    for (size_t i = 0; i < src->bs; i++) {
        if (src->seq_lens[i] > 0) {
            out->seq_lens[i] = minimize_shrink_minus_overlap(src->seq_lens[i], first, end);
        }
        if (src->seq_lens_cpu != NULL && src->seq_lens_cpu[i] > 0) {
            out->seq_lens_cpu[i] = minimize_shrink_minus_overlap(src->seq_lens_cpu[i], first, end);
        }
    }
    if (src->has_max_seq_pages) {
        out->max_seq_pages =
            (int32_t)minimize_shrink_minus_overlap(src->max_seq_pages, (int64_t)lo, (int64_t)hi);
    }
    bool ok = minimize_shrink_cut_positions(out, src, (size_t)first, (size_t)end) &&
              minimize_shrink_cut_init_columns(&out->init[GM_BUF_PAGE_TABLE], src->bs, width,
                                               lo, hi) &&
              minimize_shrink_cut_init_columns(&out->init[GM_BUF_SWA_PAGE_TABLE], src->bs, width,
                                               lo, hi);
    return ok || minimize_shrink_no_memory(out, err);
}

/* The pool rows in use, renumbered; row 0 alone when none is reachable. */
static bool minimize_shrink_pool_rows(const gm_case *src, bool *used, size_t *new_pos,
                                      size_t **from, size_t *kept) {
    for (size_t i = 0; i < src->bs; i++) {
        minimize_shrink_mark(used, src->pool, src->req_pool_indices[i]);
    }
    *kept = minimize_shrink_number(used, src->pool, new_pos);
    if (*kept == 0) {
        used[0] = true;
        *kept = minimize_shrink_number(used, src->pool, new_pos);
    }
    *from = malloc(*kept * sizeof **from);
    if (*from == NULL) {
        return false;
    }
    for (size_t k = 0; k < src->pool; k++) {
        if (used[k]) {
            (*from)[new_pos[k]] = k;
        }
    }
    return true;
}

bool minimize_shrink_pool(const gm_case *src, gm_case *out, gm_error *err) {
    gm_case_init(out);
    bool *used = calloc(src->pool, sizeof *used);
    size_t *new_pos = malloc(src->pool * sizeof *new_pos);
    size_t *from = NULL, kept = 0;
    bool ok = used != NULL && new_pos != NULL &&
              minimize_shrink_pool_rows(src, used, new_pos, &from, &kept) &&
              gm_case_copy(out, src, err) &&
              minimize_shrink_tokens(out, src, from, kept, src->width);
    if (ok) {
        minimize_shrink_renumbering rn = {src->pool, kept, new_pos};
        for (size_t i = 0; i < out->bs; i++) {
            out->req_pool_indices[i] = minimize_shrink_renumber(&rn, src->req_pool_indices[i]);
        }
    }
    free(used);
    free(new_pos);
    free(from);
    return ok || minimize_shrink_no_memory(out, err);
}

bool minimize_shrink_context(const gm_case *src, int32_t mcl, gm_case *out, gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    size_t old_width = gm_case_max_num_pages(src);
    out->max_context_len = mcl;
    size_t width = gm_case_max_num_pages(out);
    bool ok = minimize_shrink_init_columns(&out->init[GM_BUF_PAGE_TABLE], out->bs, old_width,
                                           width) &&
              minimize_shrink_init_columns(&out->init[GM_BUF_SWA_PAGE_TABLE], out->bs, old_width,
                                           width);
    return ok || minimize_shrink_no_memory(out, err);
}

bool minimize_shrink_width(const gm_case *src, size_t width, gm_case *out, gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    return minimize_shrink_tokens(out, src, NULL, src->pool, width) ||
           minimize_shrink_no_memory(out, err);
}

/* The mapping slots in use: the last one, and every slot a token (when an
 * SWA page table reads them) or an out_cache_loc entry reaches. */
static void minimize_shrink_mapping_used(const gm_case *src, bool *used) {
    size_t len = src->swa.mapping_len;
    used[len - 1] = true;
    if (src->swa.page_table) {
        for (size_t k = 0; k < src->pool * src->width; k++) {
            minimize_shrink_mark(used, len, src->req_to_token[k]);
        }
    }
    for (size_t t = 0; src->swa.out_cache_loc != NULL && t < src->swa.n_out; t++) {
        minimize_shrink_mark(used, len, src->swa.out_cache_loc[t]);
    }
}

/* Rewrites the mapping and every index into it; tokens are renumbered only
 * when an SWA page table reads them (|new| <= |old|: they stay int32). */
static void minimize_shrink_mapping_apply(gm_case *out, const gm_case *src, const bool *used,
                                          int64_t *mapping, const minimize_shrink_renumbering *rn) {
    for (size_t k = 0; k < src->swa.mapping_len; k++) {
        if (used[k]) {
            mapping[rn->new_pos[k]] = src->swa.mapping[k];
        }
    }
    free(out->swa.mapping);
    out->swa.mapping = mapping;
    out->swa.mapping_len = rn->kept;
    if (src->swa.page_table) {
        for (size_t k = 0; k < src->pool * src->width; k++) {
            out->req_to_token[k] = (int32_t)minimize_shrink_renumber(rn, src->req_to_token[k]);
        }
    }
    for (size_t t = 0; src->swa.out_cache_loc != NULL && t < src->swa.n_out; t++) {
        out->swa.out_cache_loc[t] = minimize_shrink_renumber(rn, src->swa.out_cache_loc[t]);
    }
}

bool minimize_shrink_mapping(const gm_case *src, gm_case *out, gm_error *err) {
    gm_case_init(out);
    size_t len = src->swa.mapping_len;
    bool *used = calloc(len, sizeof *used);
    size_t *new_pos = malloc(len * sizeof *new_pos);
    int64_t *mapping = malloc(len * sizeof *mapping);
    bool ok = used != NULL && new_pos != NULL && mapping != NULL && gm_case_copy(out, src, err);
    if (ok) {
        minimize_shrink_mapping_used(src, used);
        minimize_shrink_renumbering rn = {len, minimize_shrink_number(used, len, new_pos), new_pos};
        minimize_shrink_mapping_apply(out, src, used, mapping, &rn);
        mapping = NULL; /* owned by out now */
    }
    free(used);
    free(new_pos);
    free(mapping);
    return ok || minimize_shrink_no_memory(out, err);
}

bool minimize_shrink_drop_out_locs(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                                   gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    if (!minimize_shrink_cut(&out->swa.out_cache_loc, src->swa.n_out, sizeof(int64_t), lo, hi)) {
        return minimize_shrink_no_memory(out, err);
    }
    out->swa.n_out -= hi - lo;
    return true;
}

bool minimize_shrink_out_len(const gm_case *src, size_t out_len, gm_case *out, gm_error *err) {
    if (!gm_case_copy(out, src, err)) {
        return false;
    }
    size_t old = src->swa.out_len;
    out->swa.out_len = out_len;
    return minimize_shrink_cut_init(&out->init[GM_BUF_SWA_OUT_CACHE_LOC], out_len, old) ||
           minimize_shrink_no_memory(out, err);
}
