#include "gm_oracle.h"

#include <stdio.h>
#include <string.h>

static const char *const gm_oracle_compare_names[] = {"live", "strict"};
static const char *const gm_oracle_status_names[] = {
    "match", "mismatch", "reference_error", "fused_out_of_bounds", "target_failed",
    "reference_drift",
};

bool gm_status_compared(gm_status s) { return s == GM_STATUS_MATCH || s == GM_STATUS_MISMATCH; }

bool gm_oracle_is_target_failure(const char *fused_error) {
    return fused_error != NULL && strncmp(fused_error, "target_", 7) == 0;
}

const char *gm_compare_name(gm_compare c) {
    return (unsigned)c <= GM_COMPARE_STRICT ? gm_oracle_compare_names[c] : "?";
}

bool gm_compare_from_name(const char *name, gm_compare *out) {
    for (int c = GM_COMPARE_LIVE; c <= GM_COMPARE_STRICT; c++) {
        if (strcmp(name, gm_oracle_compare_names[c]) == 0) {
            *out = (gm_compare)c;
            return true;
        }
    }
    return false;
}

const char *gm_status_name(gm_status s) {
    return (unsigned)s <= GM_STATUS_REFERENCE_DRIFT ? gm_oracle_status_names[s] : "?";
}

bool gm_status_from_name(const char *name, gm_status *out) {
    for (int s = GM_STATUS_MATCH; s <= GM_STATUS_REFERENCE_DRIFT; s++) {
        if (strcmp(name, gm_oracle_status_names[s]) == 0) {
            *out = (gm_status)s;
            return true;
        }
    }
    return false;
}

/* How many leading columns of page-table row `row` the attention kernel
 * reads: clamp(ceil(cache_seqlens[row] / P), 0, max_num_pages). */
static size_t gm_oracle_live_columns(const gm_case *c, const gm_outputs *ref, size_t row) {
    const gm_buffer *lens = &ref->buf[GM_BUF_CACHE_SEQLENS];
    if (!lens->present || row >= gm_buffer_count(lens)) {
        return 0;
    }
    int64_t len = gm_buffer_get(lens, row); /* an int32: no overflow below */
    if (len <= 0) {
        return 0;
    }
    size_t pages = (size_t)((len + c->page_size - 1) / c->page_size);
    size_t max_pages = gm_case_max_num_pages(c);
    return pages < max_pages ? pages : max_pages;
}

bool gm_oracle_is_live(const gm_case *c, const gm_outputs *ref, gm_buf_id id, size_t flat) {
    if (id != GM_BUF_PAGE_TABLE && id != GM_BUF_SWA_PAGE_TABLE) {
        return true;
    }
    size_t width = gm_case_max_num_pages(c);
    if (width == 0) {
        return false;
    }
    return flat % width < gm_oracle_live_columns(c, ref, flat / width);
}

static void gm_oracle_note(gm_verdict *v, gm_buf_id id, const gm_buffer *b, size_t flat,
                           int64_t ref_value, int64_t fused_value) {
    v->buffers |= 1u << id;
    v->n_differences++;
    if (v->first.present) {
        return;
    }
    v->first.present = true;
    v->first.buf = id;
    v->first.rank = b->rank;
    v->first.index[0] = b->rank == 2 ? flat / b->dims[1] : flat;
    v->first.index[1] = b->rank == 2 ? flat % b->dims[1] : 0;
    v->first.reference = ref_value;
    v->first.fused = fused_value;
}

/* Notes every element of [first, first + n) that differs. */
static void gm_oracle_note_range(gm_buf_id id, const gm_buffer *a, const gm_buffer *b,
                                 size_t first, size_t n, gm_verdict *v) {
    for (size_t k = first; k < first + n; k++) {
        int64_t x = gm_buffer_get(a, k), y = gm_buffer_get(b, k);
        if (x != y) {
            gm_oracle_note(v, id, a, k, x, y);
        }
    }
}

/* Compares elements [first, first + n) of two buffers of one shape. Most
 * runs match: one memcmp says so without visiting the elements (this runs
 * on every fuzzer input). */
static void gm_oracle_compare_range(gm_buf_id id, const gm_buffer *a, const gm_buffer *b,
                                    size_t first, size_t n, gm_verdict *v) {
    const size_t size = a->is_int64 ? sizeof(int64_t) : sizeof(int32_t);
    const char *x = (const char *)a->data + first * size, *y = (const char *)b->data + first * size;
    if (n > 0 && memcmp(x, y, n * size) != 0) {
        gm_oracle_note_range(id, a, b, first, n, v);
    }
}

static void gm_oracle_compare_buffer(const gm_case *c, const gm_outputs *ref,
                                     const gm_outputs *fused, gm_buf_id id, gm_compare level,
                                     gm_verdict *v) {
    const gm_buffer *a = &ref->buf[id], *b = &fused->buf[id];
    if (!a->present && !b->present) {
        return;
    }
    if (a->present != b->present || a->dims[0] != b->dims[0] || a->dims[1] != b->dims[1] ||
        a->is_int64 != b->is_int64) {
        /* Cannot happen for outputs of one case; counted in full if it does. */
        const gm_buffer *shape = a->present ? a : b;
        v->buffers |= 1u << id;
        v->n_differences += gm_buffer_count(shape);
        return;
    }
    const bool page_table = id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE;
    if (level == GM_COMPARE_STRICT || !page_table) {
        gm_oracle_compare_range(id, a, b, 0, gm_buffer_count(a), v);
        return;
    }
    /* live: each row's leading columns (gm_oracle_is_live, row by row).
     * When the whole tables match (most runs) no row can differ: one
     * memcmp instead of a live-length computation and a memcmp per row
     * (a batch of 65,536 rows spent most of its check here). */
    const size_t size = a->is_int64 ? sizeof(int64_t) : sizeof(int32_t);
    const size_t count = gm_buffer_count(a);
    if (count == 0 || memcmp(a->data, b->data, count * size) == 0) {
        return;
    }
    const size_t width = a->dims[1];
    for (size_t row = 0; row < a->dims[0]; row++) {
        size_t live = gm_oracle_live_columns(c, ref, row);
        gm_oracle_compare_range(id, a, b, row * width, live < width ? live : width, v);
    }
}

void gm_oracle_compare_buffers(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                               gm_compare level, gm_verdict *v) {
    memset(v, 0, sizeof *v);
    v->compare = level;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        gm_oracle_compare_buffer(c, ref, fused, (gm_buf_id)id, level, v);
    }
    v->status = v->buffers == 0 ? GM_STATUS_MATCH : GM_STATUS_MISMATCH;
}

void gm_oracle_judge(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                     gm_compare level, gm_verdict *v) {
    if (fused->error != NULL || ref->error != NULL) {
        memset(v, 0, sizeof *v);
        v->compare = level;
        v->status = fused->error == NULL                        ? GM_STATUS_REFERENCE_ERROR
                    : gm_oracle_is_target_failure(fused->error) ? GM_STATUS_TARGET_FAILED
                                                                : GM_STATUS_FUSED_OUT_OF_BOUNDS;
        return;
    }
    gm_oracle_compare_buffers(c, ref, fused, level, v);
}

static bool gm_oracle_difference_equal(const gm_difference *a, const gm_difference *b) {
    if (a->present != b->present) {
        return false;
    }
    if (!a->present) {
        return true;
    }
    return a->buf == b->buf && a->rank == b->rank && a->index[0] == b->index[0] &&
           (a->rank == 1 || a->index[1] == b->index[1]) && a->reference == b->reference &&
           a->fused == b->fused;
}

bool gm_verdict_equal(const gm_verdict *a, const gm_verdict *b) {
    return a->status == b->status && a->compare == b->compare && a->buffers == b->buffers &&
           gm_oracle_difference_equal(&a->first, &b->first);
}

void gm_verdict_describe(const gm_verdict *v, char *out, size_t size) {
    int n = snprintf(out, size, "%s at %s", gm_status_name(v->status), gm_compare_name(v->compare));
    size_t used = n > 0 ? (size_t)n : 0;
    if (v->status != GM_STATUS_MISMATCH || used >= size) {
        return;
    }
    const bool one = v->n_differences == 1;
    n = snprintf(out + used, size - used, ": %zu element%s differ%s in", v->n_differences,
                 one ? "" : "s", one ? "s" : "");
    used += n > 0 ? (size_t)n : 0;
    for (int id = 0; id < GM_BUF_COUNT && used < size; id++) {
        if (v->buffers & (1u << id)) {
            n = snprintf(out + used, size - used, " %s", gm_buf_name((gm_buf_id)id));
            used += n > 0 ? (size_t)n : 0;
        }
    }
}
