/* minimize: structure-level delta debugging of a failing case.
 *
 * A candidate is the current case with one edit (minimize_shrink.h,
 * minimize_edit.h, or one value moved); it is kept when it is well formed
 * and its run has the same signature as the target. Since the signature
 * does not say WHY the legacy path raised or WHERE the fused kernel
 * overran, those are kept too (the exception and step; the access and
 * the buffer): otherwise every legacy_raises finding would "minimize" into
 * an empty batch, which raises for another reason. The target's bucket
 * (triage_bucket.h), when it has one, is kept too: the reproducer of a
 * bucket must show that bucket's root cause, not another one that happens
 * to give the same signature.
 *
 * Every kept edit makes the case strictly smaller in a well-founded order
 * (fewer rows, pool rows, mapping slots, columns or entries; an optional
 * part gone; a value closer to 0 in the order 0, 1, -1, 2, -2, ...), so the
 * passes reach a fixed point. They are deterministic: the same case, target
 * and build always give the same result.
 */
#include "minimize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "minimize_edit.h"
#include "minimize_shrink.h"

/* Fields with at most this many elements get every value move; larger
 * ones only have chunks of values zeroed (a run per move is too costly). */
#define MINIMIZE_ELEMENT_MOVES_MAX 64
/* Candidates one value move can propose: 0, 1, -1, a few boundaries, its
 * negation and the 63 steps of the bisection toward 0. */
#define MINIMIZE_CANDIDATES_MAX 80
#define MINIMIZE_DETAIL_MAX 128

typedef struct {
    harness_backend *backend;
    gm_compare level;
    const char *signature;
    const char *bucket;                    /* "" when the target has none: not kept */
    bool keep_detail;                      /* the first run had the target signature */
    char detail[MINIMIZE_DETAIL_MAX];      /* its raise or overrun, kept as well */
    gm_case *c;                            /* the current (smallest) case */
    minimize_stats *stats;
    gm_error *err;
    bool failed;                           /* a run or an allocation failed: stop */
    harness_run_result run;                     /* reused by every run */
} minimize_state;

/* ---- judging candidates ---------------------------------------------- */

/* What the signature leaves out: "index_out_of_range step 5", or the
 * overrun's access and buffer ("out_of_bounds: read of swa_mapping"). */
static void minimize_detail(const harness_run_result *r, char *buf, size_t size) {
    buf[0] = '\0';
    if (r->verdict.status == GM_STATUS_REFERENCE_ERROR) {
        snprintf(buf, size, "%s step %d", reference_raise_name(r->raised.raised), r->raised.step);
    } else if (r->verdict.status == GM_STATUS_TARGET_FAILED && r->fused.error != NULL) {
        /* "target_raised: IndexError: ...": the class and the exception's type;
         * "target_deviates: cu_seqlens_q[21]: ...": the class and the buffer, not
         * its index, which pins bs (the bucket keeps the rest) */
        const char *type = strchr(r->fused.error, ':');
        size_t n = type == NULL ? strlen(r->fused.error) : (size_t)(type - r->fused.error) + 2 +
                                                               strcspn(type + 2, ":[");
        snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), r->fused.error);
    } else if (r->verdict.status == GM_STATUS_FUSED_OUT_OF_BOUNDS && r->fused.error != NULL) {
        size_t n = strcspn(r->fused.error, "[");
        snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), r->fused.error);
    }
}

double minimize_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool minimize_spent(const minimize_state *m) {
    if (m->stats->deadline_s > 0.0 && !m->stats->out_of_time &&
        minimize_clock() >= m->stats->deadline_s) {
        m->stats->out_of_time = true;
    }
    return m->failed || m->stats->out_of_time ||
           (m->stats->max_runs != 0 && m->stats->runs >= m->stats->max_runs);
}

/* Runs `c`: whether it shows the target's signature (and detail). */
static bool minimize_same(minimize_state *m, const gm_case *c) {
    triage_finding f;
    m->stats->runs++;
    if (!harness_run_case(m->backend, c, m->level, &m->run, m->err)) {
        m->failed = true;
        return false;
    }
    triage_classify(c, &m->run, &f);
    if (strcmp(f.signature, m->signature) != 0 ||
        (m->bucket[0] != '\0' && strcmp(f.bucket, m->bucket) != 0)) {
        return false;
    }
    char detail[MINIMIZE_DETAIL_MAX];
    minimize_detail(&m->run, detail, sizeof detail);
    return !m->keep_detail || strcmp(detail, m->detail) == 0;
}

/* Takes `cand`: it becomes the current case when it still fails the same
 * way, and is freed otherwise. */
static bool minimize_offer(minimize_state *m, gm_case *cand) {
    bool keep = !minimize_spent(m) && gm_case_check(cand, NULL) && minimize_same(m, cand);
    if (keep) {
        gm_case_free(m->c);
        *m->c = *cand;
    } else {
        gm_case_free(cand);
    }
    return keep;
}

/* A copy of the current case to edit; false (and stop) when memory runs out. */
static bool minimize_copy(minimize_state *m, gm_case *out) {
    if (!gm_case_copy(out, m->c, m->err)) {
        m->failed = true;
        return false;
    }
    return true;
}

/* ---- removing parts in chunks (rows, pages, out_cache_loc entries) ----- */

typedef bool (*minimize_cut_fn)(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                                gm_error *err);
typedef size_t (*minimize_count_fn)(const gm_case *c);

/* Removes chunks of halving size, from the front: halves first, then
 * quarters, ..., then single elements. */
static bool minimize_chunks(minimize_state *m, minimize_count_fn count,
                            minimize_cut_fn cut) {
    bool progress = false;
    size_t chunk = (count(m->c) + 1) / 2;
    for (; chunk >= 1 && !minimize_spent(m); chunk /= 2) {
        for (size_t lo = 0; lo < count(m->c) && !minimize_spent(m);) {
            size_t hi = lo + chunk < count(m->c) ? lo + chunk : count(m->c);
            gm_case cand;
            if (!cut(m->c, lo, hi, &cand, m->err)) {
                m->failed = true;
            } else if (minimize_offer(m, &cand)) {
                progress = true; /* the next chunk moved into [lo, ...) */
            } else {
                lo = hi;
            }
        }
    }
    return progress;
}

static size_t minimize_count_rows(const gm_case *c) { return c->bs; }

static size_t minimize_count_pages(const gm_case *c) { return gm_case_max_num_pages(c); }

static size_t minimize_count_out_locs(const gm_case *c) {
    return c->has_swa && c->swa.out_cache_loc != NULL ? c->swa.n_out : 0;
}

/* ---- values toward 0 ---------------------------------------------------- */

/* Whether a is simpler than b in the order 0, 1, -1, 2, -2, ... */
static bool minimize_simpler(int64_t a, int64_t b) {
    uint64_t ma = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    uint64_t mb = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    return ma < mb || (ma == mb && a > b);
}

/* Every value that one field's element can hold. */
typedef enum {
    GM_FIELD_SEQ_LENS,
    GM_FIELD_SEQ_LENS_CPU,
    GM_FIELD_POOL_INDICES,
    GM_FIELD_QLENS,
    GM_FIELD_TOKENS,      /* req_to_token at page starts: the only positions read */
    GM_FIELD_MAPPING,
    GM_FIELD_OUT_LOCS,
    GM_FIELD_STEP_ID,
    GM_FIELD_DRAFT_TOKENS,
    GM_FIELD_Q_STRIDE,
    GM_FIELD_MAX_SEQ_PAGES,
    GM_FIELD_CONTEXT,     /* max_context_len: reshapes the page tables */
    GM_FIELD_WIDTH,       /* req_to_token's row width */
    GM_FIELD_OUT_LEN,     /* swa_out_cache_loc's length */
    GM_FIELD_INIT,        /* + buffer id: prior contents of that buffer */
    GM_FIELD_COUNT = GM_FIELD_INIT + GM_BUF_COUNT
} minimize_field;

/* Where element k of a field lives in a case, and its dtype. */
typedef struct {
    int32_t *i32;
    int64_t *i64;
    int64_t lo, hi; /* the values it may take */
} minimize_ref;

static size_t minimize_pages_per_row(const gm_case *c) {
    return (c->width + (size_t)c->page_size - 1) / (size_t)c->page_size;
}

static size_t minimize_init_count(const gm_case *c, gm_buf_id id) {
    const gm_init *in = &c->init[id];
    return in->kind == GM_INIT_ARRAY ? in->len : in->kind == GM_INIT_FILL ? 1 : 0;
}

static size_t minimize_field_count(const gm_case *c, minimize_field f) {
    bool swa = c->has_swa;
    switch (f) {
    case GM_FIELD_SEQ_LENS:
    case GM_FIELD_POOL_INDICES: return c->bs;
    case GM_FIELD_SEQ_LENS_CPU: return c->seq_lens_cpu != NULL ? c->bs : 0;
    case GM_FIELD_QLENS: return c->qlens != NULL ? c->bs : 0;
    case GM_FIELD_TOKENS: return c->pool * minimize_pages_per_row(c);
    case GM_FIELD_MAPPING: return swa ? c->swa.mapping_len : 0;
    case GM_FIELD_OUT_LOCS: return minimize_count_out_locs(c);
    case GM_FIELD_MAX_SEQ_PAGES: return c->has_max_seq_pages ? 1 : 0;
    case GM_FIELD_OUT_LEN: return swa && c->swa.has_out_len ? 1 : 0;
    case GM_FIELD_STEP_ID:
    case GM_FIELD_DRAFT_TOKENS:
    case GM_FIELD_Q_STRIDE:
    case GM_FIELD_CONTEXT:
    case GM_FIELD_WIDTH: return 1;
    default: return minimize_init_count(c, (gm_buf_id)(f - GM_FIELD_INIT));
    }
}

static void minimize_ref_i32(minimize_ref *ref, int32_t *p, int64_t lo) {
    *ref = (minimize_ref){p, NULL, lo, INT32_MAX};
}

static void minimize_ref_i64(minimize_ref *ref, int64_t *p) {
    *ref = (minimize_ref){NULL, p, INT64_MIN, INT64_MAX};
}

static void minimize_ref_init(gm_case *c, gm_buf_id id, size_t k, minimize_ref *ref) {
    gm_init *in = &c->init[id];
    minimize_ref_i64(ref, in->kind == GM_INIT_ARRAY ? &in->values[k] : &in->fill);
    if (!gm_buf_is_int64(id)) {
        ref->lo = INT32_MIN; /* the int32 buffers' prior contents */
        ref->hi = INT32_MAX;
    }
}

/* Where element k of a value field lives (the shape fields have no single
 * place: minimize_with reshapes the case for them). */
static void minimize_field_ref(gm_case *c, minimize_field f, size_t k,
                               minimize_ref *ref) {
    size_t per_row = minimize_pages_per_row(c);
    switch (f) {
    case GM_FIELD_SEQ_LENS: minimize_ref_i64(ref, &c->seq_lens[k]); break;
    case GM_FIELD_SEQ_LENS_CPU: minimize_ref_i64(ref, &c->seq_lens_cpu[k]); break;
    case GM_FIELD_POOL_INDICES: minimize_ref_i64(ref, &c->req_pool_indices[k]); break;
    case GM_FIELD_QLENS: minimize_ref_i32(ref, &c->qlens[k], INT32_MIN); break;
    case GM_FIELD_TOKENS:
        minimize_ref_i32(ref, &c->req_to_token[k / per_row * c->width +
                                                  k % per_row * (size_t)c->page_size],
                         INT32_MIN);
        break;
    case GM_FIELD_MAPPING: minimize_ref_i64(ref, &c->swa.mapping[k]); break;
    case GM_FIELD_OUT_LOCS: minimize_ref_i64(ref, &c->swa.out_cache_loc[k]); break;
    case GM_FIELD_STEP_ID: minimize_ref_i32(ref, &c->speculative_step_id, INT32_MIN); break;
    case GM_FIELD_DRAFT_TOKENS: minimize_ref_i32(ref, &c->num_draft_tokens, INT32_MIN); break;
    case GM_FIELD_Q_STRIDE: minimize_ref_i32(ref, &c->q_stride, INT32_MIN); break;
    case GM_FIELD_MAX_SEQ_PAGES: minimize_ref_i32(ref, &c->max_seq_pages, 0); break;
    default: minimize_ref_init(c, (gm_buf_id)(f - GM_FIELD_INIT), k, ref); break;
    }
}

static bool minimize_is_shape(minimize_field f) {
    return f == GM_FIELD_CONTEXT || f == GM_FIELD_WIDTH || f == GM_FIELD_OUT_LEN;
}

/* A shape field's value and range: it may only shrink. */
static int64_t minimize_shape_get(const gm_case *c, minimize_field f, int64_t *lo) {
    switch (f) {
    case GM_FIELD_CONTEXT: *lo = 1; return c->max_context_len;
    case GM_FIELD_WIDTH: *lo = c->max_context_len; return (int64_t)c->width;
    default: *lo = 0; return (int64_t)c->swa.out_len;
    }
}

/* The current value of element k of field f and the range it may take. */
static int64_t minimize_get(gm_case *c, minimize_field f, size_t k, int64_t *lo,
                            int64_t *hi) {
    if (minimize_is_shape(f)) {
        *hi = minimize_shape_get(c, f, lo);
        return *hi;
    }
    minimize_ref ref;
    minimize_field_ref(c, f, k, &ref);
    *lo = ref.lo;
    *hi = ref.hi;
    return ref.i32 != NULL ? *ref.i32 : *ref.i64;
}

/* Element k of value field f of `c` = v (within the field's range). */
static void minimize_set(gm_case *c, minimize_field f, size_t k, int64_t v) {
    minimize_ref ref;
    minimize_field_ref(c, f, k, &ref);
    if (ref.i32 != NULL) {
        *ref.i32 = (int32_t)v;
    } else {
        *ref.i64 = v;
    }
}

/* The current case with element k of field f set to v, into `out`. */
static bool minimize_with(minimize_state *m, minimize_field f, size_t k, int64_t v,
                          gm_case *out) {
    bool ok;
    switch (f) {
    case GM_FIELD_CONTEXT: ok = minimize_shrink_context(m->c, (int32_t)v, out, m->err); break;
    case GM_FIELD_WIDTH: ok = minimize_shrink_width(m->c, (size_t)v, out, m->err); break;
    case GM_FIELD_OUT_LEN: ok = minimize_shrink_out_len(m->c, (size_t)v, out, m->err); break;
    default:
        ok = minimize_copy(m, out);
        if (ok) {
            minimize_set(out, f, k, v);
        }
        break;
    }
    m->failed = m->failed || !ok;
    return ok;
}

/* Values worth trying for one field beside the generic ones: the edges
 * where the two sides start to differ (pool and mapping bounds, the int32
 * range, a page boundary), so that a value lands on the edge in one step. */
static size_t minimize_edges(const gm_case *c, minimize_field f, int64_t *out) {
    int64_t pool = (int64_t)c->pool, len = c->has_swa ? (int64_t)c->swa.mapping_len : 1;
    int64_t page = c->page_size, past_int32 = (int64_t)INT32_MAX + 1;
    switch (f) {
    case GM_FIELD_POOL_INDICES:
        out[0] = pool;
        out[1] = -pool - 1;
        return 2;
    case GM_FIELD_TOKENS:
    case GM_FIELD_OUT_LOCS:
        out[0] = len;
        out[1] = -len - 1;
        out[2] = -2; /* the shallowest slot below the sentinel */
        return 3;
    case GM_FIELD_MAPPING:
        out[0] = past_int32;
        out[1] = (int64_t)INT32_MIN - 1;
        return 2;
    case GM_FIELD_SEQ_LENS:
    case GM_FIELD_SEQ_LENS_CPU:
        out[0] = page;
        out[1] = page + 1;
        out[2] = past_int32;
        return 3;
    default: return 0;
    }
}

static int minimize_by_simplicity(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return minimize_simpler(x, y) ? -1 : minimize_simpler(y, x) ? 1 : 0;
}

/* The candidates for a value v in [lo, hi], simplest first: 0, 1, -1, a
 * positive lower bound, the field's edges, -v, and v moved toward 0 by |v|/2, |v|/4, ..., 1 (a
 * bisection onto the simplest value that still fails). */
static size_t minimize_candidates(const gm_case *c, minimize_field f, int64_t v,
                                  int64_t lo, int64_t hi, int64_t *out) {
    int64_t all[MINIMIZE_CANDIDATES_MAX];
    size_t n = 0;
    all[n++] = 0;
    all[n++] = 1;
    all[n++] = -1;
    if (lo > 0) {
        all[n++] = lo; /* width >= max_context_len >= 1: often the answer */
    }
    n += minimize_edges(c, f, all + n);
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0 && v != INT64_MIN) {
        all[n++] = -v;
    }
    for (uint64_t step = mag / 2; step > 0 && n < MINIMIZE_CANDIDATES_MAX; step /= 2) {
        all[n++] = v < 0 ? (int64_t)((uint64_t)v + step) : (int64_t)((uint64_t)v - step);
    }
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        bool fresh = true;
        for (size_t j = 0; j < kept; j++) {
            fresh = fresh && out[j] != all[k];
        }
        if (fresh && all[k] >= lo && all[k] <= hi && minimize_simpler(all[k], v)) {
            out[kept++] = all[k];
        }
    }
    qsort(out, kept, sizeof *out, minimize_by_simplicity);
    return kept;
}

/* Moves element k of field f toward 0 for as long as a simpler value
 * still fails the same way. */
static bool minimize_value(minimize_state *m, minimize_field f, size_t k) {
    bool progress = false;
    for (bool moved = true; moved && !minimize_spent(m);) {
        int64_t lo, hi, cands[MINIMIZE_CANDIDATES_MAX];
        int64_t v = minimize_get(m->c, f, k, &lo, &hi);
        size_t n = minimize_candidates(m->c, f, v, lo, hi, cands);
        moved = false;
        for (size_t j = 0; j < n && !moved && !minimize_spent(m); j++) {
            gm_case cand;
            moved = minimize_with(m, f, k, cands[j], &cand) && minimize_offer(m, &cand);
        }
        progress = progress || moved;
    }
    return progress;
}

/* Sets elements [lo, hi) of a value field to 0 in one candidate (no run
 * when they are zero already). */
static bool minimize_zero_chunk(minimize_state *m, minimize_field f, size_t lo, size_t hi) {
    bool any = false;
    for (size_t k = lo; k < hi && !any; k++) {
        int64_t min, max;
        any = minimize_get(m->c, f, k, &min, &max) != 0;
    }
    gm_case cand;
    if (!any || !minimize_copy(m, &cand)) {
        return false;
    }
    for (size_t k = lo; k < hi; k++) {
        minimize_set(&cand, f, k, 0);
    }
    return minimize_offer(m, &cand);
}

/* Zeroes chunks of halving size (all, halves, ...) of a value field: cheap
 * on long fields whose values mostly do not matter. Stops at single
 * elements for short fields, which the element moves then refine. */
static bool minimize_zero_chunks(minimize_state *m, minimize_field f) {
    bool progress = false;
    size_t n = minimize_field_count(m->c, f);
    size_t smallest = n <= MINIMIZE_ELEMENT_MOVES_MAX ? n : 1;
    for (size_t chunk = n; chunk >= smallest && chunk > 0 && !minimize_spent(m); chunk /= 2) {
        for (size_t lo = 0; lo < n && !minimize_spent(m); lo += chunk) {
            progress |= minimize_zero_chunk(m, f, lo, lo + chunk < n ? lo + chunk : n);
        }
    }
    return progress;
}

static bool minimize_field_values(minimize_state *m, minimize_field f) {
    bool progress = false;
    if (!minimize_is_shape(f)) {
        progress = minimize_zero_chunks(m, f);
    }
    size_t n = minimize_field_count(m->c, f);
    if (n > MINIMIZE_ELEMENT_MOVES_MAX) {
        return progress;
    }
    for (size_t k = 0; k < n && !minimize_spent(m); k++) {
        progress |= minimize_value(m, f, k);
    }
    return progress;
}

static bool minimize_values(minimize_state *m) {
    bool progress = false;
    for (int f = 0; f < GM_FIELD_COUNT && !minimize_spent(m); f++) {
        if (!minimize_is_shape((minimize_field)f)) { /* those are structure */
            progress |= minimize_field_values(m, (minimize_field)f);
        }
    }
    return progress;
}

/* ---- optional parts ----------------------------------------------------- */

static bool minimize_try_edit(minimize_state *m, minimize_edit_fn edit) {
    gm_case cand;
    if (minimize_spent(m) || !minimize_copy(m, &cand)) {
        return false;
    }
    if (!edit(&cand)) {
        gm_case_free(&cand);
        return false;
    }
    return minimize_offer(m, &cand);
}

/* An init array becomes the default, or else one fill value. */
static bool minimize_init(minimize_state *m, gm_buf_id id) {
    gm_init *in = &m->c->init[id];
    if (in->kind == GM_INIT_DEFAULT || minimize_spent(m)) {
        return false;
    }
    bool was_array = in->kind == GM_INIT_ARRAY && in->len > 0;
    int64_t first = was_array ? in->values[0] : 0;
    gm_case cand;
    if (!minimize_copy(m, &cand)) {
        return false;
    }
    minimize_edit_clear_init(&cand, id);
    if (minimize_offer(m, &cand)) {
        return true;
    }
    if (!was_array || !minimize_copy(m, &cand)) {
        return false;
    }
    minimize_edit_clear_init(&cand, id);
    cand.init[id] = (gm_init){GM_INIT_FILL, first, NULL, 0};
    return minimize_offer(m, &cand);
}

static bool minimize_optional(minimize_state *m) {
    static const minimize_edit_fn edits[] = {
        minimize_edit_no_swa,           minimize_edit_no_swa_page_table,
        minimize_edit_no_out_buffer,    minimize_edit_no_out_cache_loc,
        minimize_edit_no_seq_lens_cpu,  minimize_edit_no_max_seq_pages,
        minimize_edit_no_qlens,         minimize_edit_zero_unread_tokens,
        minimize_edit_fold_offset,
    };
    bool progress = false;
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        progress |= minimize_try_edit(m, edits[k]);
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        progress |= minimize_init(m, (gm_buf_id)id);
    }
    return progress;
}

/* ---- structure ---------------------------------------------------------- */

typedef bool (*minimize_try_shrink_fn)(const gm_case *src, gm_case *out, gm_error *err);

/* One whole-case shrink (pool, mapping) that only runs when it removes
 * something. */
static bool minimize_try_shrink(minimize_state *m, minimize_try_shrink_fn shrink) {
    gm_case cand;
    if (minimize_spent(m)) {
        return false;
    }
    if (!shrink(m->c, &cand, m->err)) {
        m->failed = true;
        return false;
    }
    bool smaller = cand.pool < m->c->pool || cand.swa.mapping_len < m->c->swa.mapping_len;
    if (!smaller) {
        gm_case_free(&cand);
        return false;
    }
    return minimize_offer(m, &cand);
}

static bool minimize_structure(minimize_state *m) {
    bool progress = minimize_chunks(m, minimize_count_rows, minimize_shrink_drop_rows);
    progress |= minimize_try_shrink(m, minimize_shrink_pool);
    progress |= minimize_chunks(m, minimize_count_pages, minimize_shrink_drop_pages);
    progress |= minimize_field_values(m, GM_FIELD_CONTEXT);
    progress |= minimize_field_values(m, GM_FIELD_WIDTH);
    if (m->c->has_swa) {
        progress |= minimize_try_shrink(m, minimize_shrink_mapping);
    }
    progress |= minimize_chunks(m, minimize_count_out_locs, minimize_shrink_drop_out_locs);
    progress |= minimize_field_values(m, GM_FIELD_OUT_LEN);
    return progress;
}

/* ---- the driver ----------------------------------------------------------- */

/* Runs the case as given: its detail is kept when it fails as the target. */
static bool minimize_start(minimize_state *m) {
    if (!minimize_same(m, m->c) && !m->failed) {
        return true; /* it does not fail as the target (yet): no detail to keep */
    }
    if (m->failed) {
        return false;
    }
    m->keep_detail = true;
    minimize_detail(&m->run, m->detail, sizeof m->detail);
    return true;
}

bool minimize_case(harness_backend *b, gm_compare level, const triage_finding *target, gm_case *c,
                   minimize_stats *stats, gm_error *err) {
    minimize_stats local = {.max_runs = 0};
    minimize_state m = {
        .backend = b, .level = level, .signature = target->signature, .bucket = target->bucket,
        .c = c,
        .stats = stats != NULL ? stats : &local, .err = err,
    };
    m.stats->runs = 0;
    m.stats->out_of_time = false;
    harness_run_result_init(&m.run);
    free(c->name); /* a label changes nothing that runs */
    c->name = NULL;
    bool ok = minimize_start(&m);
    for (bool progress = ok; progress && !minimize_spent(&m);) {
        progress = minimize_structure(&m);
        progress |= minimize_optional(&m);
        progress |= minimize_values(&m);
    }
    harness_run_result_free(&m.run);
    return ok && !m.failed;
}
