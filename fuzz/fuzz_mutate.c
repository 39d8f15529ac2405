#include "fuzz_mutate.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_decode.h"
#include "fuzz_encode.h"
#include "fuzz_int.h"
#include "fuzz_recipe.h"
#include "fuzz_value.h"

const char *fuzz_mutation_name(fuzz_mutation m) {
    static const char *const names[FUZZ_MUT_COUNT] = {
        "resize_batch", "seq_edge",  "sentinel",  "mode",      "page_size", "mapping_size",
        "toggle",       "token_slot", "row_index", "out_count", "context",   "scalar",   "corner",
    };
    return (unsigned)m < FUZZ_MUT_COUNT ? names[m] : "?";
}

/* ---- helpers ------------------------------------------------------------ */

static bool fuzz_mutate_no_memory(gm_error *err) {
    return gm_error_set(err, GM_ERR_MEMORY, "fuzz_mutate: out of memory");
}

/* One of the domain's edge values (fuzz_value.h), for this case. */
static int64_t fuzz_mutate_special(const gm_case *c, fuzz_domain d, fuzz_rng *rng) {
    fuzz_value_ctx x;
    gm_space_ctx_of(c, &x);
    return fuzz_value_special(d, &x, (unsigned)fuzz_rng_below(rng, fuzz_value_special_count(d)));
}

static size_t fuzz_mutate_pick_size(fuzz_rng *rng, const size_t *options, size_t n) {
    return options[fuzz_rng_below(rng, n)];
}

/* A copy of `old` (elements of `size` bytes) resized from old_n to new_n
 * elements; new ones repeat the old ones cyclically (zeros when there were
 * none). NULL stays NULL; a failed allocation clears *ok. */
static void *fuzz_mutate_resized(const void *old, size_t size, size_t old_n, size_t new_n,
                                 bool *ok) {
    if (old == NULL || !*ok) {
        return NULL;
    }
    unsigned char *grown = calloc(new_n + 1, size);
    if (grown == NULL) {
        *ok = false;
        return NULL;
    }
    for (size_t k = 0; k < new_n && old_n > 0; k++) {
        memcpy(grown + k * size, (const unsigned char *)old + (k % old_n) * size, size);
    }
    return grown;
}

/* Init arrays whose buffer changed shape become a fill of their first
 * value; inits of buffers the case lost are dropped. */
static void fuzz_mutate_fix_inits(gm_case *c) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        gm_init *in = &c->init[id];
        int rank;
        size_t dims[2];
        if (in->kind == GM_INIT_DEFAULT) {
            continue;
        }
        if (!gm_case_buf_shape(c, (gm_buf_id)id, &rank, dims)) {
            free(in->values);
            memset(in, 0, sizeof *in);
        } else if (in->kind == GM_INIT_ARRAY && in->len != dims[0] * dims[1]) {
            int64_t first = in->len > 0 ? in->values[0] : 0;
            free(in->values);
            memset(in, 0, sizeof *in);
            in->kind = GM_INIT_FILL;
            in->fill = first;
        }
    }
}

static bool fuzz_mutate_cells_fit(size_t bs, size_t pages) {
    return bs <= FUZZ_BS_MAX && pages <= FUZZ_PAGES_MAX && bs * pages <= FUZZ_CELLS_MAX;
}

/* ---- the batch ------------------------------------------------------------ */

static size_t fuzz_mutate_new_bs(const gm_case *c, fuzz_rng *rng) {
    size_t bs = c->bs, pow2 = 1;
    while (pow2 <= bs) {
        pow2 *= 2;
    }
    const size_t near[8] = {0, 1, bs > 0 ? bs - 1 : 0, bs + 1, 2 * bs, bs / 2, pow2, pow2 + 1};
    const size_t edges[12] = {63, 64, 65, 127, 128, 129, 255, 256, 257, 1023, 4096, 4097};
    /* the big batches cost the most: a few percent of the resizes */
    const size_t big[12] = {1024, 1025, 2047, 2048,  2049,  4095,
                            8191, 8192, 8193, 16384, 32768, 65536};
    unsigned pick = (unsigned)fuzz_rng_below(rng, 100);
    return pick < 70   ? fuzz_mutate_pick_size(rng, near, 8)
           : pick < 96 ? fuzz_mutate_pick_size(rng, edges, 12)
                       : fuzz_mutate_pick_size(rng, big, 12);
}

/* Rows [from, bs) become cuda-graph padding: pool row 0, length 1. */
static void fuzz_mutate_pad_rows(gm_case *c, size_t from) {
    for (size_t i = from; i < c->bs; i++) {
        c->req_pool_indices[i] = 0;
        c->seq_lens[i] = 1;
        if (c->seq_lens_cpu != NULL) {
            c->seq_lens_cpu[i] = 1;
        }
    }
}

#define FUZZ_MUTATE_PAD_ABOVE 4097u

/* Grows or shrinks the batch; new rows repeat the old ones or, half the
 * time and always past FUZZ_MUTATE_PAD_ABOVE rows, are padding rows (a
 * batch padded up to a captured graph size).
 * Everything is allocated first: on failure the case is unchanged. */
static bool fuzz_mutate_resize_batch(gm_case *c, fuzz_rng *rng, gm_error *err) {
    size_t old = c->bs, bs = fuzz_mutate_new_bs(c, rng);
    if (!fuzz_mutate_cells_fit(bs, gm_case_max_num_pages(c))) {
        return true;
    }
    bool ok = true;
    /* req_pool_indices and seq_lens may be NULL in an empty batch read from
     * JSON; they are required once there are rows */
    static const int64_t none = 0;
    int64_t *rpi = fuzz_mutate_resized(c->req_pool_indices ? c->req_pool_indices : &none, 8,
                                       c->req_pool_indices ? old : 0, bs, &ok);
    int64_t *seq = fuzz_mutate_resized(c->seq_lens ? c->seq_lens : &none, 8,
                                       c->seq_lens ? old : 0, bs, &ok);
    int64_t *cpu = fuzz_mutate_resized(c->seq_lens_cpu, 8, old, bs, &ok);
    int32_t *qlens = fuzz_mutate_resized(c->qlens, 4, old, bs, &ok);
    if (!ok) {
        free(rpi);
        free(seq);
        free(cpu);
        free(qlens);
        return fuzz_mutate_no_memory(err);
    }
    free(c->req_pool_indices);
    free(c->seq_lens);
    free(c->seq_lens_cpu);
    free(c->qlens);
    c->req_pool_indices = rpi;
    c->seq_lens = seq;
    c->seq_lens_cpu = cpu;
    c->qlens = qlens;
    c->bs = bs;
    /* one draw per statement; a batch grown past FUZZ_MUTATE_PAD_ABOVE rows
     * is always padded: repeated rows would not encode within libFuzzer's
     * size limit, padding is a few header bytes */
    bool pad = old == 0 || bs > FUZZ_MUTATE_PAD_ABOVE;
    pad = fuzz_rng_below(rng, 2) == 0 || pad;
    if (bs > old && pad) {
        fuzz_mutate_pad_rows(c, old);
    }
    fuzz_mutate_fix_inits(c);
    return true;
}

/* A multiple of P near v, plus -1, 0 or +1. */
static int64_t fuzz_mutate_page_boundary(int64_t v, int64_t P, fuzz_rng *rng) {
    int64_t pages = fuzz_int_add(v / P, (int64_t)fuzz_rng_below(rng, 2));
    return fuzz_int_add(fuzz_int_mul(pages, P), (int64_t)fuzz_rng_below(rng, 3) - 1);
}

static bool fuzz_mutate_seq_edge(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    if (c->bs == 0) {
        return true;
    }
    size_t i = fuzz_rng_below(rng, c->bs);
    bool host = c->seq_lens_cpu != NULL && fuzz_rng_below(rng, 4) == 0;
    int64_t *v = host ? &c->seq_lens_cpu[i] : &c->seq_lens[i];
    switch (fuzz_rng_below(rng, 4)) {
    case 0: *v = fuzz_int_add(*v, fuzz_rng_below(rng, 2) ? 1 : -1); break;
    case 1: *v = fuzz_mutate_page_boundary(*v, c->page_size, rng); break;
    default: *v = fuzz_mutate_special(c, FUZZ_DOM_SEQ, rng); break;
    }
    return true;
}

static bool fuzz_mutate_row_index(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    if (c->bs == 0) {
        return true;
    }
    if (fuzz_rng_below(rng, 4) == 0) {
        fuzz_mutate_pad_rows(c, c->bs - 1 - fuzz_rng_below(rng, c->bs));
        return true;
    }
    /* one draw per statement: argument and operand order is unspecified,
     * and the same seed must mutate alike with every compiler */
    size_t i = fuzz_rng_below(rng, c->bs);
    c->req_pool_indices[i] = fuzz_mutate_special(c, FUZZ_DOM_ROW, rng);
    return true;
}

/* ---- tokens, the mapping, locations ---------------------------------------- */

/* A pool row that some batch row reads (else any row). */
static size_t fuzz_mutate_row_in_use(const gm_case *c, fuzz_rng *rng) {
    if (c->bs > 0) {
        int64_t r = c->req_pool_indices[fuzz_rng_below(rng, c->bs)];
        if (r >= 0 && (uint64_t)r < c->pool) {
            return (size_t)r;
        }
    }
    return fuzz_rng_below(rng, c->pool);
}

/* The token at a page start of a row in use. */
static int32_t *fuzz_mutate_page_token(gm_case *c, fuzz_rng *rng) {
    size_t row = fuzz_mutate_row_in_use(c, rng);
    size_t page = fuzz_rng_below(rng, gm_case_max_num_pages(c));
    return &c->req_to_token[row * c->width + page * (size_t)c->page_size];
}

static bool fuzz_mutate_token_slot(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    int32_t *tok = fuzz_mutate_page_token(c, rng); /* one draw per statement */
    *tok = fuzz_int_low32((uint64_t)fuzz_mutate_special(c, FUZZ_DOM_TOKEN, rng));
    return true;
}

/* The -1 sentinel where it matters: a page-start token, the mapping's
 * last element (on or off), the entry a token selects, a location. */
static bool fuzz_mutate_sentinel(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    int32_t *tok = fuzz_mutate_page_token(c, rng);
    unsigned choice = c->has_swa ? (unsigned)fuzz_rng_below(rng, 4) : 0;
    gm_swa *s = &c->swa;
    int64_t deep = -1 - (int64_t)fuzz_rng_below(rng, 3); /* -1, -2, -3 */
    if (choice == 0) {
        *tok = (int32_t)deep;
    } else if (choice == 1) {
        int64_t *last = &s->mapping[s->mapping_len - 1];
        *last = *last == -1 ? fuzz_mutate_special(c, FUZZ_DOM_MAP, rng) : -1;
    } else if (choice == 2 && *tok >= 0 && (size_t)*tok < s->mapping_len) {
        s->mapping[*tok] = deep;
    } else if (s->out_cache_loc != NULL && s->n_out > 0) {
        s->out_cache_loc[fuzz_rng_below(rng, s->n_out)] = deep;
    }
    return true;
}

/* The values of a resized mapping or location list: the old ones, then
 * a continuation (+1 each), keeping a trailing -1 sentinel at the end. */
static bool fuzz_mutate_regrow(int64_t **p, size_t old_n, size_t new_n, bool keep_sentinel) {
    int64_t *grown = malloc((new_n + 1) * sizeof *grown);
    if (grown == NULL) {
        return false;
    }
    size_t body = old_n - (keep_sentinel ? 1 : 0);
    int64_t next = 0;
    for (size_t k = 0; k < new_n; k++) {
        grown[k] = k < body ? (*p)[k] : next;
        next = fuzz_int_add(grown[k], 1);
    }
    if (keep_sentinel && new_n > 0) {
        grown[new_n - 1] = -1;
    }
    free(*p);
    *p = grown;
    return true;
}

/* An SWA model with the identity mapping (and the -1 sentinel). */
static bool fuzz_mutate_add_swa(gm_case *c, gm_error *err) {
    size_t len = c->pool * c->width + (size_t)c->page_size + 1;
    len = len < FUZZ_MAPPING_MAX ? len : FUZZ_MAPPING_MAX;
    c->swa.mapping = malloc((len + 1) * sizeof(int64_t));
    if (c->swa.mapping == NULL) {
        return fuzz_mutate_no_memory(err);
    }
    for (size_t t = 0; t < len; t++) {
        c->swa.mapping[t] = t + 1 == len ? -1 : (int64_t)t;
    }
    c->has_swa = true;
    c->swa.mapping_len = len;
    c->swa.page_table = true;
    return true;
}

static bool fuzz_mutate_mapping_size(gm_case *c, fuzz_rng *rng, gm_error *err) {
    if (!c->has_swa) {
        return fuzz_mutate_add_swa(c, err);
    }
    size_t len = c->swa.mapping_len, P = (size_t)c->page_size;
    const size_t options[7] = {len + 1, len + P, 2 * len, len - 1, len / 2,
                               c->pool * c->width + P + 1, 1};
    size_t n = fuzz_mutate_pick_size(rng, options, 7);
    n = n < 1 ? 1 : n > FUZZ_MAPPING_MAX ? FUZZ_MAPPING_MAX : n;
    bool sentinel = c->swa.mapping[len - 1] == -1 && len > 1;
    if (!fuzz_mutate_regrow(&c->swa.mapping, len, n, sentinel)) {
        return fuzz_mutate_no_memory(err);
    }
    c->swa.mapping_len = n;
    return true;
}

/* A 512-slot tile edge of the SWA-out programs: k tiles, -1, +0 or +1. */
static size_t fuzz_mutate_tile_edge(fuzz_rng *rng) {
    static const size_t tiles[6] = {1, 2, 3, 4, 8, 32};
    size_t k = fuzz_mutate_pick_size(rng, tiles, 6);
    return k * 512 + fuzz_rng_below(rng, 3) - 1;
}

/* len(out_cache_loc) just below, at or just above out_len (or a tile
 * edge); a quarter of the time out_len itself moves to a tile edge first
 * (when the case has the buffer). */
static bool fuzz_mutate_out_count(gm_case *c, fuzz_rng *rng, gm_error *err) {
    if (!c->has_swa) {
        return true;
    }
    gm_swa *s = &c->swa;
    if (s->has_out_len && fuzz_rng_below(rng, 4) == 0) {
        size_t len = fuzz_mutate_tile_edge(rng);
        s->out_len = len < FUZZ_OUT_MAX ? len : FUZZ_OUT_MAX;
        fuzz_mutate_fix_inits(c);
    }
    size_t base = s->has_out_len ? s->out_len : c->bs;
    size_t tile = fuzz_mutate_tile_edge(rng);
    const size_t options[7] = {base > 0 ? base - 1 : 0, base, base + 1, 0, 1, 2 * base, tile};
    size_t n = fuzz_mutate_pick_size(rng, options, 7);
    n = n > FUZZ_OUT_MAX ? FUZZ_OUT_MAX : n;
    if (s->out_cache_loc == NULL) {
        s->out_cache_loc = calloc(1, sizeof(int64_t)); /* grows from slot 0 below */
        s->n_out = 0;
        if (s->out_cache_loc == NULL) {
            return fuzz_mutate_no_memory(err);
        }
    }
    if (!fuzz_mutate_regrow(&s->out_cache_loc, s->n_out, n, false)) {
        return fuzz_mutate_no_memory(err);
    }
    s->n_out = n;
    return true;
}

/* ---- shape: mode, page size, context ------------------------------------- */

static bool fuzz_mutate_mode(gm_case *c, fuzz_rng *rng, gm_error *err) {
    c->mode = (gm_mode)((c->mode + 1 + fuzz_rng_below(rng, GM_MODE_COUNT - 1)) % GM_MODE_COUNT);
    if (c->mode == GM_MODE_DRAFT_EXTEND && c->qlens == NULL) {
        c->qlens = malloc((c->bs + 1) * sizeof(int32_t));
        if (c->qlens == NULL) {
            c->mode = GM_MODE_DECODE;
            return fuzz_mutate_no_memory(err);
        }
        for (size_t i = 0; i < c->bs; i++) {
            c->qlens[i] = (int32_t)fuzz_rng_below(rng, 5);
        }
    }
    if (c->mode == GM_MODE_TARGET_VERIFY && c->num_draft_tokens == 0) {
        c->num_draft_tokens = 1 + (int32_t)fuzz_rng_below(rng, 8);
    }
    if (c->mode == GM_MODE_DRAFT_EXTEND_V2 && c->q_stride == 0) {
        c->q_stride = 1 + (int32_t)fuzz_rng_below(rng, 4);
    }
    return true;
}

static bool fuzz_mutate_page_size(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    size_t P = (size_t)c->page_size;
    const size_t any = 1 + fuzz_rng_below(rng, 256); /* 1..256, powers of two or not */
    const size_t options[15] = {1, 2, 3, 4, 8, 16, 32, 64, 128, 256,
                                P < INT32_MAX / 2 ? 2 * P : P, P / 2, P + 1, P - 1, any};
    size_t p = fuzz_mutate_pick_size(rng, options, 15);
    if (p < 1 || p > INT32_MAX) {
        return true;
    }
    size_t pages = ((size_t)c->max_context_len + p - 1) / p;
    if (fuzz_mutate_cells_fit(c->bs, pages)) {
        c->page_size = (int32_t)p;
        fuzz_mutate_fix_inits(c);
    }
    return true;
}

/* max_context_len onto or off a page boundary (within the width). */
static void fuzz_mutate_max_context_len(gm_case *c, fuzz_rng *rng) {
    int64_t M = c->max_context_len, P = c->page_size;
    int64_t up = (M + P - 1) / P * P, down = M / P * P;
    const int64_t options[8] = {M + 1, M - 1, up, up + 1, down - 1, down, (int64_t)c->width, 1};
    int64_t m = options[fuzz_rng_below(rng, 8)];
    int64_t limit = (int64_t)(c->width < FUZZ_MCL_MAX ? c->width : FUZZ_MCL_MAX);
    if (m < 1 || m > limit) {
        return;
    }
    size_t pages = ((size_t)m + (size_t)P - 1) / (size_t)P;
    if (fuzz_mutate_cells_fit(c->bs, pages)) {
        c->max_context_len = (int32_t)m;
    }
}

/* A wider req_to_token: each row continues +1 past its old end. One time
 * in eight the page table widens with it: max_context_len becomes
 * the new width, a wide page count (rows past one block of the row
 * programs, up to FUZZ_PAGES_MAX pages) when the budgets allow it. */
static bool fuzz_mutate_widen(gm_case *c, fuzz_rng *rng, gm_error *err) {
    const size_t options[3] = {1, (size_t)c->page_size, 16};
    static const size_t wide[8] = {257, 513, 1024, 1025, 4096, 4097, 16383, 16384};
    size_t P = (size_t)c->page_size, w = c->width + fuzz_mutate_pick_size(rng, options, 3);
    bool table = fuzz_rng_below(rng, 8) == 0;
    if (table) {
        size_t pages = fuzz_mutate_pick_size(rng, wide, 8);
        w = P <= FUZZ_MCL_MAX / pages ? pages * P : c->width;
        if (w <= c->width || !fuzz_mutate_cells_fit(c->bs, pages)) {
            return true;
        }
    }
    if (w > FUZZ_WIDTH_MAX || c->pool * w > FUZZ_TOKENS_MAX) {
        return true;
    }
    int32_t *tokens = malloc((c->pool * w + 1) * sizeof *tokens);
    if (tokens == NULL) {
        return fuzz_mutate_no_memory(err);
    }
    for (size_t r = 0; r < c->pool; r++) {
        const int32_t *old = c->req_to_token + r * c->width;
        for (size_t col = 0; col < w; col++) {
            tokens[r * w + col] = col < c->width
                                      ? old[col]
                                      : fuzz_int_low32((uint64_t)old[c->width - 1] + (col - c->width + 1));
        }
    }
    free(c->req_to_token);
    c->req_to_token = tokens;
    c->width = w;
    if (table) {
        c->max_context_len = (int32_t)w;
        fuzz_mutate_fix_inits(c);
    }
    return true;
}

static bool fuzz_mutate_context(gm_case *c, fuzz_rng *rng, gm_error *err) {
    if (fuzz_rng_below(rng, 2) == 0) {
        fuzz_mutate_max_context_len(c, rng);
        fuzz_mutate_fix_inits(c);
        return true;
    }
    return fuzz_mutate_widen(c, rng, err);
}

/* ---- optional parts and scalars ------------------------------------------- */

static bool fuzz_mutate_toggle_host_lens(gm_case *c, fuzz_rng *rng, gm_error *err) {
    if (c->seq_lens_cpu != NULL) {
        free(c->seq_lens_cpu);
        c->seq_lens_cpu = NULL;
        return true;
    }
    c->seq_lens_cpu = malloc((c->bs + 1) * sizeof(int64_t));
    if (c->seq_lens_cpu == NULL) {
        return fuzz_mutate_no_memory(err);
    }
    int64_t lag = (int64_t)fuzz_rng_below(rng, 2); /* equal, or the host copy one step behind */
    for (size_t i = 0; i < c->bs; i++) {
        c->seq_lens_cpu[i] = fuzz_int_sub(c->seq_lens[i], lag);
    }
    return true;
}

static bool fuzz_mutate_toggle_out_len(gm_case *c) {
    c->swa.has_out_len = !c->swa.has_out_len;
    c->swa.out_len = c->swa.has_out_len ? (c->bs < FUZZ_OUT_MAX ? c->bs : FUZZ_OUT_MAX) : 0;
    fuzz_mutate_fix_inits(c);
    return true;
}

static bool fuzz_mutate_toggle_locations(gm_case *c, fuzz_rng *rng, gm_error *err) {
    gm_swa *s = &c->swa;
    if (s->out_cache_loc == NULL) {
        return fuzz_mutate_out_count(c, rng, err);
    }
    free(s->out_cache_loc);
    s->out_cache_loc = NULL;
    s->n_out = 0;
    return true;
}

/* An init: default -> a stale fill, anything else -> default. */
static bool fuzz_mutate_toggle_init(gm_case *c, fuzz_rng *rng) {
    int rank;
    size_t dims[2];
    gm_buf_id id = (gm_buf_id)fuzz_rng_below(rng, GM_BUF_COUNT);
    gm_init *in = &c->init[id];
    if (in->kind != GM_INIT_DEFAULT) {
        free(in->values);
        memset(in, 0, sizeof *in);
    } else if (gm_case_buf_shape(c, id, &rank, dims)) {
        int64_t v = fuzz_mutate_special(c, FUZZ_DOM_FILL, rng);
        in->kind = GM_INIT_FILL;
        in->fill = gm_buf_is_int64(id) ? v : fuzz_int_low32((uint64_t)v);
    }
    return true;
}

static bool fuzz_mutate_toggle_max_seq_pages(gm_case *c, fuzz_rng *rng) {
    c->has_max_seq_pages = !c->has_max_seq_pages;
    int64_t pages = (int64_t)gm_case_max_num_pages(c) + (int64_t)fuzz_rng_below(rng, 3) - 1;
    c->max_seq_pages = c->has_max_seq_pages ? (int32_t)(pages < 0 ? 0 : pages) : 0;
    return true;
}

static bool fuzz_mutate_toggle(gm_case *c, fuzz_rng *rng, gm_error *err) {
    unsigned part = (unsigned)fuzz_rng_below(rng, c->has_swa ? 7 : 3);
    switch (part) {
    case 0: return fuzz_mutate_toggle_host_lens(c, rng, err);
    case 1: return fuzz_mutate_toggle_init(c, rng);
    case 2: return fuzz_mutate_toggle_max_seq_pages(c, rng);
    case 3: return fuzz_mutate_toggle_out_len(c);
    case 4: return fuzz_mutate_toggle_locations(c, rng, err);
    case 5:
        c->swa.page_table = !c->swa.page_table;
        fuzz_mutate_fix_inits(c);
        return true;
    default: /* drop the SWA model */
        free(c->swa.mapping);
        free(c->swa.out_cache_loc);
        memset(&c->swa, 0, sizeof c->swa);
        c->has_swa = false;
        fuzz_mutate_fix_inits(c);
        return true;
    }
}

static bool fuzz_mutate_scalar(gm_case *c, fuzz_rng *rng, gm_error *err) {
    (void)err;
    int32_t v = fuzz_int_low32((uint64_t)fuzz_mutate_special(c, FUZZ_DOM_COUNT, rng));
    switch (fuzz_rng_below(rng, 5)) {
    case 0: c->speculative_step_id = v; break;
    case 1: c->num_draft_tokens = v; break;
    case 2: c->q_stride = v; break;
    case 3:
        if (c->qlens != NULL && c->bs > 0) {
            c->qlens[fuzz_rng_below(rng, c->bs)] = v;
        }
        break;
    default:
        if (c->has_max_seq_pages) {
            int64_t m = (int64_t)gm_case_max_num_pages(c) + (int64_t)fuzz_rng_below(rng, 3) - 1;
            c->max_seq_pages = (int32_t)(m < 0 ? 0 : m);
        }
        break;
    }
    return true;
}

/* ---- dispatch ---------------------------------------------------------- */

/* A corner of the input space (gm_space_corner): several rare values at
 * once, which single mutations reach only one after another. */
static bool fuzz_mutate_corner(gm_case *c, fuzz_rng *rng, gm_error *err) {
    unsigned k = (unsigned)fuzz_rng_below(rng, GM_SPACE_CORNER_N);
    return gm_space_corner_apply(k, c, fuzz_rng_next(rng)) || fuzz_mutate_no_memory(err);
}

typedef bool (*fuzz_mutate_fn)(gm_case *c, fuzz_rng *rng, gm_error *err);

bool fuzz_mutate_apply(gm_case *c, fuzz_mutation m, fuzz_rng *rng, gm_error *err) {
    static const fuzz_mutate_fn fns[FUZZ_MUT_COUNT] = {
        fuzz_mutate_resize_batch, fuzz_mutate_seq_edge,     fuzz_mutate_sentinel,
        fuzz_mutate_mode,         fuzz_mutate_page_size,    fuzz_mutate_mapping_size,
        fuzz_mutate_toggle,       fuzz_mutate_token_slot,   fuzz_mutate_row_index,
        fuzz_mutate_out_count,    fuzz_mutate_context,      fuzz_mutate_scalar,
        fuzz_mutate_corner,
    };
    if ((unsigned)m >= FUZZ_MUT_COUNT) {
        return gm_error_set(err, GM_ERR_USAGE, "fuzz_mutate: unknown mutation %d", (int)m);
    }
    return fns[m](c, rng, err);
}

bool fuzz_mutate(gm_case *c, fuzz_rng *rng, unsigned max_steps, gm_error *err) {
    unsigned steps = 1 + (unsigned)fuzz_rng_below(rng, max_steps > 0 ? max_steps : 1);
    for (unsigned k = 0; k < steps; k++) {
        if (!fuzz_mutate_apply(c, (fuzz_mutation)fuzz_rng_below(rng, FUZZ_MUT_COUNT), rng, err)) {
            return false;
        }
    }
    return true;
}

size_t fuzz_mutate_input(uint8_t *data, size_t size, size_t max_size, fuzz_rng *rng,
                         unsigned max_steps, const fuzz_recipe_donor *base) {
    gm_case c;
    fuzz_recipe recipe;
    gm_error err = {0};
    if (!fuzz_decode_from(data, size, &c, &recipe, base, &err)) {
        return 0;
    }
    uint8_t *bytes = NULL;
    size_t n = 0;
    const fuzz_encode_options opt = {.canonical = false, .hint = &recipe, .base = base};
    bool ok = fuzz_mutate(&c, rng, max_steps, &err) && fuzz_encode(&c, &opt, &bytes, &n, &err) &&
              n <= max_size;
    if (ok) {
        memcpy(data, bytes, n);
    }
    free(bytes);
    gm_case_free(&c);
    return ok ? n : 0;
}
