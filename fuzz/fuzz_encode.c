#include "fuzz_encode.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_array.h"
#include "fuzz_header.h"
#include "fuzz_int.h"
#include "fuzz_output.h"
#include "fuzz_recipe.h"
#include "fuzz_record.h"

/* Mismatches this close together share one FILL or RUN record. */
#define FUZZ_ENCODE_GAP 4

typedef struct {
    const gm_case *c;
    const fuzz_recipe *hint; /* NULL: none */
    const fuzz_recipe_donor *base; /* NULL: none */
    fuzz_recipe r;
    uint8_t *mask[FUZZ_ARRAY_COUNT]; /* canonical: 1 where an element is read; NULL: all */
    int32_t *row;                    /* scratch: one generated req_to_token row */
} fuzz_encoder;

/* ---- what the recipe generates, and where the case differs ------------- */

/* The first index >= from where the case differs from the recipe's build
 * `pre` (same shape) in an element that is read; v->len when none. A typed
 * loop: this visits every element of every array once per encoding. */
static size_t fuzz_encode_next_diff(const fuzz_encoder *e, fuzz_array a,
                                    const fuzz_array_view *target, const fuzz_array_view *pre,
                                    size_t from) {
    const uint8_t *mask = e->mask[a];
    size_t i = from, n = target->len;
    if (target->storage64) {
        const int64_t *x = target->data, *y = pre->data;
        while (i < n && (x[i] == y[i] || (mask != NULL && !mask[i]))) {
            i++;
        }
    } else {
        const int32_t *x = target->data, *y = pre->data;
        while (i < n && (x[i] == y[i] || (mask != NULL && !mask[i]))) {
            i++;
        }
    }
    return i;
}

/* Elements of `a` the current recipe misses, counting no further than
 * limit + 1: generated in chunks (fuzz_recipe_values) and compared. */
static size_t fuzz_encode_misses(const fuzz_encoder *e, fuzz_array a, size_t limit) {
    enum { CHUNK = 1024 };
    int64_t generated[CHUNK];
    fuzz_array_view v;
    if (!fuzz_array_view_of(e->c, a, &v)) {
        return 0;
    }
    const uint8_t *mask = e->mask[a];
    const int64_t *t64 = v.storage64 ? v.data : NULL;
    const int32_t *t32 = v.storage64 ? NULL : v.data;
    size_t n = 0;
    for (size_t first = 0; first < v.len && n <= limit; first += CHUNK) {
        size_t count = v.len - first < CHUNK ? v.len - first : CHUNK;
        fuzz_recipe_values(&e->r, a, first, count, generated);
        for (size_t k = 0; k < count; k++) {
            int64_t target = t64 != NULL ? t64[first + k] : t32[first + k];
            n += generated[k] != target && (mask == NULL || mask[first + k]);
        }
    }
    return n;
}

/* ---- choosing generators ---------------------------------------------- */

/* Elements of `a` in the case (0 when it lacks the array). */
static size_t fuzz_encode_length(const gm_case *c, fuzz_array a) {
    fuzz_array_view v;
    return fuzz_array_view_of(c, a, &v) ? v.len : 0;
}

/* The first two values of `a` (the second repeats the first when short). */
static void fuzz_encode_first_two(const gm_case *c, fuzz_array a, int64_t *v0, int64_t *v1) {
    fuzz_array_view v;
    *v0 = *v1 = 0;
    if (fuzz_array_view_of(c, a, &v) && v.len > 0) {
        *v0 = fuzz_array_get(&v, 0);
        *v1 = v.len > 1 ? fuzz_array_get(&v, 1) : *v0;
    }
}

static bool fuzz_encode_same_gen(const fuzz_gen *x, const fuzz_gen *y) {
    return x->kind == y->kind && x->seed == y->seed && x->a == y->a && x->b == y->b;
}

static bool fuzz_encode_same_tok(const fuzz_tok_gen *x, const fuzz_tok_gen *y) {
    return x->kind == y->kind && x->seed == y->seed && x->a == y->a && x->b == y->b &&
           x->c == y->c;
}

/* Sets *slot to whichever candidate misses the fewest elements of `a`:
 * the hint's generator first (after a mutation it usually fits, and one
 * that misses at most a quarter of the elements is taken without looking
 * further: this runs on every custom mutation), then a progression through
 * the first two values, a constant, and (modulus > 0) that progression
 * modulo `modulus`. */
static void fuzz_encode_pick_gen(fuzz_encoder *e, fuzz_array a, fuzz_gen *slot,
                                 const fuzz_gen *hint, uint64_t modulus) {
    int64_t v0, v1;
    fuzz_encode_first_two(e->c, a, &v0, &v1);
    int64_t step = fuzz_int_sub(v1, v0);
    fuzz_gen cands[4];
    size_t n = 0, best = SIZE_MAX;
    if (hint != NULL) {
        cands[n++] = *hint;
    }
    cands[n++] = (fuzz_gen){FUZZ_GEN_AFFINE, 0, v0, step};
    cands[n++] = (fuzz_gen){FUZZ_GEN_CONST, 0, v0, 0};
    if (modulus > 0) {
        cands[n++] = (fuzz_gen){FUZZ_GEN_MODULO, 0, v0, (int64_t)fuzz_int_mod(step, modulus)};
    }
    fuzz_gen chosen = cands[0];
    size_t good_enough = hint != NULL ? fuzz_encode_length(e->c, a) / 4 : 0;
    for (size_t k = 0; k < n && best > good_enough; k++) {
        if (k > 0 && fuzz_encode_same_gen(&cands[k], &cands[0])) {
            continue; /* the hint was this very candidate */
        }
        *slot = cands[k];
        size_t misses = fuzz_encode_misses(e, a, best);
        if (misses < best) {
            best = misses;
            chosen = cands[k];
        }
    }
    *slot = chosen;
}

/* seq_lens_cpu: a copy, a lag, or a generator of its own. */
static void fuzz_encode_pick_cpu(fuzz_encoder *e) {
    fuzz_recipe *r = &e->r;
    const gm_case *c = e->c;
    r->cpu_kind = FUZZ_CPU_ABSENT;
    if (c->seq_lens_cpu == NULL) {
        return;
    }
    const fuzz_gen *hint =
        e->hint != NULL && e->hint->cpu_kind == FUZZ_CPU_OWN ? &e->hint->cpu : NULL;
    r->cpu_kind = FUZZ_CPU_OWN;
    fuzz_encode_pick_gen(e, FUZZ_ARRAY_SEQ_LENS_CPU, &r->cpu, hint, 0);
    fuzz_gen chosen_gen = r->cpu;
    fuzz_cpu_kind chosen = FUZZ_CPU_OWN;
    size_t best = fuzz_encode_misses(e, FUZZ_ARRAY_SEQ_LENS_CPU, SIZE_MAX);
    int64_t lag0 = c->bs > 0 ? fuzz_int_sub(fuzz_recipe_seq(r, 0), c->seq_lens_cpu[0]) : 0;
    int64_t lag1 = c->bs > 1 ? fuzz_int_sub(fuzz_recipe_seq(r, 1), c->seq_lens_cpu[1]) : lag0;
    const fuzz_cpu_kind kinds[2] = {FUZZ_CPU_EQUAL, FUZZ_CPU_LAG};
    const fuzz_gen gens[2] = {{FUZZ_GEN_CONST, 0, 0, 0},
                              {FUZZ_GEN_AFFINE, 0, lag0, fuzz_int_sub(lag1, lag0)}};
    for (size_t k = 0; k < 2 && best > 0; k++) {
        r->cpu_kind = kinds[k];
        r->cpu = gens[k];
        size_t misses = fuzz_encode_misses(e, FUZZ_ARRAY_SEQ_LENS_CPU, best);
        if (misses < best) {
            best = misses;
            chosen = kinds[k];
            chosen_gen = gens[k];
        }
    }
    r->cpu_kind = chosen;
    r->cpu = chosen_gen;
}

/* Tokens the current recipe misses (no further than limit + 1), a row at
 * a time with the recipe's row builder. */
static size_t fuzz_encode_token_misses(const fuzz_encoder *e, size_t limit) {
    const gm_case *c = e->c;
    const uint8_t *mask = e->mask[FUZZ_ARRAY_REQ_TO_TOKEN];
    size_t n = 0;
    for (size_t row = 0; row < c->pool && n <= limit; row++) {
        const int32_t *target = c->req_to_token + row * c->width;
        fuzz_recipe_token_row(&e->r, row, e->row);
        for (size_t col = 0; col < c->width; col++) {
            bool read = mask == NULL || mask[row * c->width + col];
            n += read && e->row[col] != target[col];
        }
    }
    return n;
}

/* req_to_token: the hint's generator, a + b * row + c * col through the
 * corner values, or a constant. */
static void fuzz_encode_pick_tokens(fuzz_encoder *e) {
    const gm_case *c = e->c;
    int64_t t00 = c->req_to_token[0];
    int64_t t01 = c->width > 1 ? c->req_to_token[1] : t00;
    int64_t t10 = c->pool > 1 ? c->req_to_token[c->width] : t00;
    fuzz_tok_gen cands[3];
    size_t n = 0, best = SIZE_MAX;
    if (e->hint != NULL) {
        cands[n++] = e->hint->tok;
    }
    cands[n++] = (fuzz_tok_gen){FUZZ_TOK_AFFINE, 0, t00, fuzz_int_sub(t10, t00), fuzz_int_sub(t01, t00)};
    cands[n++] = (fuzz_tok_gen){FUZZ_TOK_CONST, 0, t00, 0, 0};
    fuzz_tok_gen chosen = cands[0];
    size_t good_enough = e->hint != NULL ? c->pool * c->width / 4 : 0;
    for (size_t k = 0; k < n && best > good_enough; k++) {
        if (k > 0 && fuzz_encode_same_tok(&cands[k], &cands[0])) {
            continue;
        }
        e->r.tok = cands[k];
        size_t misses = fuzz_encode_token_misses(e, best);
        if (misses < best) {
            best = misses;
            chosen = cands[k];
        }
    }
    e->r.tok = chosen;
}

/* Rows at the end that look like cuda-graph padding (pool row 0, length 1). */
static size_t fuzz_encode_pad_rows(const gm_case *c) {
    size_t pad = 0;
    while (pad < c->bs && c->req_pool_indices[c->bs - 1 - pad] == 0 &&
           c->seq_lens[c->bs - 1 - pad] == 1) {
        pad++;
    }
    return pad;
}

static void fuzz_encode_shape(fuzz_recipe *r, const gm_case *c) {
    memset(r, 0, sizeof *r);
    r->mode = c->mode;
    r->page_size = c->page_size;
    r->max_context_len = c->max_context_len;
    r->bs = c->bs;
    r->width = c->width;
    r->pool = c->pool;
    r->confined = fuzz_recipe_in_bounds(c);
    r->pad_rows = fuzz_encode_pad_rows(c);
    r->has_max_seq_pages = c->has_max_seq_pages;
    r->max_seq_pages = c->has_max_seq_pages ? c->max_seq_pages : 0;
    r->step_id = c->speculative_step_id;
    r->draft_tokens = c->num_draft_tokens;
    r->q_stride = c->q_stride;
    r->has_qlens = c->qlens != NULL;
    r->has_swa = c->has_swa;
    if (c->has_swa) {
        r->swa_page_table = c->swa.page_table;
        r->mapping_len = c->swa.mapping_len;
        r->keep_last = c->swa.mapping[c->swa.mapping_len - 1] != -1;
        r->has_out_len = c->swa.has_out_len;
        r->out_len = c->swa.has_out_len ? c->swa.out_len : 0;
        r->has_out_loc = c->swa.out_cache_loc != NULL;
        r->n_out = r->has_out_loc ? c->swa.n_out : 0;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        r->init_kind[id] = c->init[id].kind;
        r->init[id].a = c->init[id].kind == GM_INIT_FILL ? c->init[id].fill : 0;
    }
}

static void fuzz_encode_generators(fuzz_encoder *e) {
    fuzz_recipe *r = &e->r;
    const fuzz_recipe *h = e->hint;
    fuzz_encode_pick_gen(e, FUZZ_ARRAY_REQ_POOL_INDICES, &r->rpi, h ? &h->rpi : NULL, r->pool);
    fuzz_encode_pick_gen(e, FUZZ_ARRAY_SEQ_LENS, &r->seq, h ? &h->seq : NULL, 0);
    fuzz_encode_pick_cpu(e);
    fuzz_encode_pick_gen(e, FUZZ_ARRAY_QLENS, &r->qlens, h ? &h->qlens : NULL, 0);
    fuzz_encode_pick_tokens(e);
    if (r->has_swa) {
        fuzz_encode_pick_gen(e, FUZZ_ARRAY_MAPPING, &r->mapping, h ? &h->mapping : NULL, 0);
        fuzz_encode_pick_gen(e, FUZZ_ARRAY_OUT_CACHE_LOC, &r->loc, h ? &h->loc : NULL, 0);
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        /* the hint's array generator, when it had one for this buffer */
        const fuzz_gen *hint = h && h->init_kind[id] == GM_INIT_ARRAY ? &h->init[id] : NULL;
        if (r->init_kind[id] == GM_INIT_ARRAY) {
            fuzz_encode_pick_gen(e, FUZZ_ARRAY_INIT + id, &r->init[id], hint, 0);
        }
    }
}

/* ---- canonical masks: what either side reads ---------------------------- */

/* The pool row that batch row i reads: the index itself, or its Python
 * wrap (the reference); SIZE_MAX when neither side reads a row. */
static size_t fuzz_encode_row_read(const gm_case *c, size_t i) {
    int64_t r = c->req_pool_indices[i], pool = (int64_t)c->pool;
    if (r >= 0 && r < pool) {
        return (size_t)r;
    }
    return r < 0 && r >= -pool ? (size_t)(pool + r) : SIZE_MAX;
}

static void fuzz_encode_mark_mapping(const gm_case *c, uint8_t *mask, int64_t index) {
    int64_t len = (int64_t)c->swa.mapping_len;
    if (index < 0 && index >= -len) {
        index += len; /* the reference's Python wrap */
    }
    if (index >= 0 && index < len) {
        mask[index] = 1;
    }
}

/* Page starts (one page further than the table, for the fused kernel's
 * read past a short row) of every row in use, and the mapping entries
 * those tokens and the locations select. */
static void fuzz_encode_mark(const gm_case *c, uint8_t *tokens, uint8_t *mapping) {
    size_t pages = gm_case_max_num_pages(c), total = c->pool * c->width;
    for (size_t i = 0; i < c->bs; i++) {
        size_t row = fuzz_encode_row_read(c, i);
        for (size_t p = 0; row != SIZE_MAX && p <= pages; p++) {
            size_t flat = row * c->width + p * (size_t)c->page_size;
            if (flat < total) {
                tokens[flat] = 1;
                if (mapping != NULL) {
                    fuzz_encode_mark_mapping(c, mapping, c->req_to_token[flat]);
                }
            }
        }
    }
    if (mapping == NULL) {
        return;
    }
    mapping[c->swa.mapping_len - 1] = 1;
    for (size_t t = 0; c->swa.out_cache_loc != NULL && t < c->swa.n_out; t++) {
        fuzz_encode_mark_mapping(c, mapping, c->swa.out_cache_loc[t]);
    }
}

static bool fuzz_encode_masks(fuzz_encoder *e, gm_error *err) {
    const gm_case *c = e->c;
    e->mask[FUZZ_ARRAY_REQ_TO_TOKEN] = calloc(c->pool * c->width + 1, 1);
    if (c->has_swa) {
        e->mask[FUZZ_ARRAY_MAPPING] = calloc(c->swa.mapping_len + 1, 1);
    }
    if (e->mask[FUZZ_ARRAY_REQ_TO_TOKEN] == NULL || (c->has_swa && e->mask[FUZZ_ARRAY_MAPPING] == NULL)) {
        return gm_error_set(err, GM_ERR_MEMORY, "fuzz_encode: out of memory for masks");
    }
    fuzz_encode_mark(c, e->mask[FUZZ_ARRAY_REQ_TO_TOKEN], e->mask[FUZZ_ARRAY_MAPPING]);
    return true;
}

/* ---- records ------------------------------------------------------------ */

/* Elements [first, last] of `a` (both differ): one SET, a FILL when they
 * are all one value, else a RUN. */
static void fuzz_encode_segment(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                                const fuzz_value_ctx *ctx, size_t first, size_t last,
                                size_t *fill_budget) {
    size_t n = last - first + 1;
    int64_t value = fuzz_array_get(v, first);
    if (n == 1) {
        fuzz_record_write_set(o, a, v, ctx, first, value);
        return;
    }
    bool constant = true;
    for (size_t k = first + 1; k <= last && constant; k++) {
        constant = fuzz_array_get(v, k) == value;
    }
    if (constant && n > 2 && *fill_budget >= n) {
        fuzz_record_write_fill(o, a, v, ctx, first, n, value);
        *fill_budget -= n;
        return;
    }
    fuzz_record_write_run(o, a, v, ctx, first, n);
}

static void fuzz_encode_records(const fuzz_encoder *e, const gm_case *pre, fuzz_output *o,
                                fuzz_array a, const fuzz_value_ctx *ctx, size_t *fill_budget) {
    fuzz_array_view v, built;
    if (!fuzz_array_view_of(e->c, a, &v) || !fuzz_array_view_of(pre, a, &built)) {
        return;
    }
    size_t i = fuzz_encode_next_diff(e, a, &v, &built, 0);
    while (i < v.len) {
        /* extend over differences no more than FUZZ_ENCODE_GAP apart */
        size_t last = i, next = fuzz_encode_next_diff(e, a, &v, &built, i + 1);
        while (next < v.len && next - last <= FUZZ_ENCODE_GAP) {
            last = next;
            next = fuzz_encode_next_diff(e, a, &v, &built, next + 1);
        }
        fuzz_encode_segment(o, a, &v, ctx, i, last, fill_budget);
        i = next;
    }
}

static void fuzz_encode_free(fuzz_encoder *e) {
    for (int a = 0; a < FUZZ_ARRAY_COUNT; a++) {
        free(e->mask[a]);
    }
    free(e->row);
}

/* Header, then the records that take the recipe's build to the case. */
static bool fuzz_encode_write(const fuzz_encoder *e, fuzz_output *o, gm_error *err) {
    gm_case pre;
    if (!fuzz_recipe_build_from(&e->r, e->base, &pre, err)) {
        return false;
    }
    fuzz_header_write(o, &e->r);
    fuzz_value_ctx ctx;
    fuzz_recipe_ctx(&e->r, &ctx);
    size_t fill_budget = FUZZ_FILL_BUDGET;
    for (int a = 0; a < FUZZ_ARRAY_COUNT; a++) {
        fuzz_encode_records(e, &pre, o, (fuzz_array)a, &ctx, &fill_budget);
    }
    gm_case_free(&pre);
    return true;
}

bool fuzz_encode(const gm_case *c, const fuzz_encode_options *opt, uint8_t **data, size_t *size,
                 gm_error *err) {
    if (!fuzz_recipe_fits(c, err)) {
        return false;
    }
    fuzz_encoder e = {.c = c, .hint = opt != NULL ? opt->hint : NULL,
                      .base = opt != NULL ? opt->base : NULL};
    fuzz_encode_shape(&e.r, c);
    e.row = malloc((c->width + 1) * sizeof *e.row);
    bool ready = e.row != NULL || gm_error_set(err, GM_ERR_MEMORY, "fuzz_encode: out of memory");
    if (!ready || (opt != NULL && opt->canonical && !fuzz_encode_masks(&e, err))) {
        fuzz_encode_free(&e);
        return false;
    }
    fuzz_encode_generators(&e);
    fuzz_output o;
    fuzz_output_init(&o);
    bool ok = fuzz_encode_write(&e, &o, err) && fuzz_output_finish(&o, data, size, err);
    fuzz_output_free(&o);
    fuzz_encode_free(&e);
    return ok;
}

/* ---- equality ----------------------------------------------------------- */

static bool fuzz_encode_same(const void *a, const void *b, size_t n, size_t size) {
    if (a == NULL || b == NULL) {
        return a == b || n == 0;
    }
    return n == 0 || memcmp(a, b, n * size) == 0;
}

/* Optional arrays: present on both sides or neither, and then equal. */
static bool fuzz_encode_same_optional(const void *a, const void *b, size_t n, size_t size) {
    return (a == NULL) == (b == NULL) && fuzz_encode_same(a, b, n, size);
}

static bool fuzz_encode_equal_swa(const gm_case *a, const gm_case *b) {
    const gm_swa *x = &a->swa, *y = &b->swa;
    if (!a->has_swa) {
        return true;
    }
    return x->mapping_len == y->mapping_len &&
           fuzz_encode_same(x->mapping, y->mapping, x->mapping_len, 8) &&
           x->page_table == y->page_table && x->has_out_len == y->has_out_len &&
           (!x->has_out_len || x->out_len == y->out_len) &&
           (x->out_cache_loc == NULL) == (y->out_cache_loc == NULL) &&
           (x->out_cache_loc == NULL ||
            (x->n_out == y->n_out && fuzz_encode_same(x->out_cache_loc, y->out_cache_loc, x->n_out, 8)));
}

static bool fuzz_encode_equal_init(const gm_init *x, const gm_init *y) {
    if (x->kind != y->kind) {
        return false;
    }
    if (x->kind == GM_INIT_FILL) {
        return x->fill == y->fill;
    }
    return x->kind == GM_INIT_DEFAULT ||
           (x->len == y->len && fuzz_encode_same(x->values, y->values, x->len, 8));
}

bool fuzz_encode_equal(const gm_case *a, const gm_case *b) {
    bool same = a->mode == b->mode && a->page_size == b->page_size &&
                a->max_context_len == b->max_context_len && a->pool == b->pool &&
                a->width == b->width && a->bs == b->bs &&
                a->speculative_step_id == b->speculative_step_id &&
                a->num_draft_tokens == b->num_draft_tokens && a->q_stride == b->q_stride &&
                a->has_max_seq_pages == b->has_max_seq_pages &&
                (!a->has_max_seq_pages || a->max_seq_pages == b->max_seq_pages) &&
                a->has_swa == b->has_swa &&
                fuzz_encode_same(a->req_to_token, b->req_to_token, a->pool * a->width, 4) &&
                fuzz_encode_same(a->req_pool_indices, b->req_pool_indices, a->bs, 8) &&
                fuzz_encode_same(a->seq_lens, b->seq_lens, a->bs, 8) &&
                fuzz_encode_same_optional(a->seq_lens_cpu, b->seq_lens_cpu, a->bs, 8) &&
                fuzz_encode_same_optional(a->qlens, b->qlens, a->bs, 4) &&
                fuzz_encode_equal_swa(a, b);
    for (int id = 0; same && id < GM_BUF_COUNT; id++) {
        same = fuzz_encode_equal_init(&a->init[id], &b->init[id]);
    }
    return same;
}
