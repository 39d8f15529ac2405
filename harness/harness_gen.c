#include "harness.h"

#include <stdlib.h>

#include "gm_hash.h"
#include "gm_space.h"

void harness_gen_seed(harness_gen *g, uint64_t seed) { g->state = seed; }

uint64_t harness_gen_next(harness_gen *g) { return gm_hash_mix(g->state += GM_HASH_GOLDEN); }

int64_t harness_gen_range(harness_gen *g, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t r = span == 0 ? harness_gen_next(g) : harness_gen_next(g) % span;
    return (int64_t)((uint64_t)lo + r);
}

static bool harness_gen_chance(harness_gen *g, int percent) {
    return harness_gen_range(g, 0, 99) < percent;
}

/* ---- the input space's classes (core/gm_space.h) ------------------------
 * The edge values come from the one table the fuzzer's decoder, mutator and
 * dictionary use too: a class the fuzzer can select, the sweep draws. */

/* Class (r mod count) of `in` for the case of `x`: r is a draw already made. */
static int64_t harness_gen_class_of(gm_space_input in, const gm_space_ctx *x, uint64_t r) {
    return gm_space_value(in, x, (unsigned)(r % gm_space_count(in)));
}

/* The low 32 bits as an int32 (what an int64 -> int32 store keeps). */
static int32_t harness_gen_low32(int64_t v) {
    uint32_t u = (uint32_t)(uint64_t)v;
    return u < 0x80000000u ? (int32_t)u : (int32_t)((int64_t)u - ((int64_t)1 << 32));
}

/* A class of `in` for case `c`, drawn. */
static int64_t harness_gen_class(harness_gen *g, gm_space_input in, const gm_case *c) {
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    return harness_gen_class_of(in, &x, harness_gen_next(g));
}

/* Budgets of the big shapes, in elements: the CPU side costs O(elements),
 * so a tall batch has few pages and a wide page table few rows. */
#define HARNESS_GEN_CELLS ((int64_t)1 << 18)  /* bs * max_num_pages */
#define HARNESS_GEN_TOKENS ((int64_t)1 << 19) /* pool * width */
#define HARNESS_GEN_CORNER_SALT 0x636f726e657273ull   /* "corners": its own hash of the state */

static bool harness_gen_no_memory(gm_error *err) {
    return gm_error_set(err, GM_ERR_MEMORY, "out of memory generating a case");
}

/* A page size in 1..256: mostly the common ones, sometimes one of the
 * input space's (powers of two and their neighbours), sometimes any. */
static int32_t harness_gen_page_size(harness_gen *g) {
    static const int32_t sizes[] = {1, 2, 3, 16, 64, 128, 4, 8, 32, 256};
    int64_t pick = harness_gen_range(g, 0, 99);
    int64_t space = (int64_t)gm_space_page_size_count - 1;
    return pick < 80   ? sizes[harness_gen_range(g, 0, 5)]
           : pick < 88 ? sizes[harness_gen_range(g, 6, 9)]
           : pick < 95 ? gm_space_page_sizes[harness_gen_range(g, 0, space)]
                       : (int32_t)harness_gen_range(g, 1, 256);
}

/* A size at an edge (a power of two from `lo_log2` to `hi_log2`, -1, +0 or
 * +1) half the time, else uniform in [lo, hi]; within [lo, hi]. */
static int64_t harness_gen_edge(harness_gen *g, int lo_log2, int hi_log2, int64_t lo, int64_t hi) {
    int64_t v = harness_gen_range(g, lo, hi);
    if (harness_gen_chance(g, 50)) {
        int64_t e = (int64_t)1 << harness_gen_range(g, lo_log2, hi_log2);
        v = e + harness_gen_range(g, -1, 1);
    }
    return v < lo ? lo : v > hi ? hi : v;
}

/* max_context_len for exactly `pages` pages (the last one full or not). */
static void harness_gen_pages(harness_gen *g, gm_case *c, int64_t pages) {
    int64_t P = c->page_size;
    c->max_context_len = (int32_t)harness_gen_range(g, (pages - 1) * P + 1, pages * P);
}

/* The batch's size and the page table's width: mostly small; 3 % a big
 * batch (1,023 to 65,536 rows, at the block and tile edges 1024, 2048,
 * ..., 65536 half the time) with at most HARNESS_GEN_CELLS / bs pages; 3 % a
 * wide page table (513 to 16,384 pages, at 1024, 2048, ..., 16384 half
 * the time) with few rows and a pool within HARNESS_GEN_TOKENS. */
static void harness_gen_dimensions(harness_gen *g, gm_case *c, harness_gen_region region) {
    /* anywhere: the region drawn (3 % big batch, 3 % wide table); else the one asked for */
    int64_t shape = region == HARNESS_GEN_ANYWHERE     ? harness_gen_range(g, 0, 99)
                    : region == HARNESS_GEN_BIG_BATCH  ? 0
                    : region == HARNESS_GEN_WIDE_TABLE ? 3
                                                       : 6;
    if (shape < 3) { /* big batch */
        c->page_size = harness_gen_page_size(g);
        c->bs = (size_t)harness_gen_edge(g, 10, 16, 1023, 65536);
        int64_t room = HARNESS_GEN_CELLS / (int64_t)c->bs;
        harness_gen_pages(g, c, harness_gen_range(g, 1, room < 16 ? room : 16));
    } else if (shape < 6) { /* wide page table */
        c->page_size = harness_gen_chance(g, 70) ? (int32_t)harness_gen_range(g, 1, 2)
                                                 : harness_gen_page_size(g);
        int64_t most = HARNESS_GEN_TOKENS / 2 / c->page_size; /* pages; a pool of 2 rows at least */
        most = most < 16384 ? most : 16384;
        int64_t pages = harness_gen_edge(g, 9, 14, most < 513 ? most : 513, most);
        harness_gen_pages(g, c, pages);
        c->bs = (size_t)harness_gen_range(
            g, 1, HARNESS_GEN_CELLS / pages < 16 ? HARNESS_GEN_CELLS / pages : 16);
    } else if (region == HARNESS_GEN_ANYWHERE && harness_gen_chance(g, 6)) {
        /* a batch at a block or tile edge (31 .. 4097 rows), the pages the
         * cell budget leaves */
        c->page_size = harness_gen_page_size(g);
        c->bs = (size_t)gm_space_edge_size((unsigned)harness_gen_range(g, 0, 99));
        int64_t tokens = HARNESS_GEN_CELLS / (int64_t)c->bs * c->page_size;
        c->max_context_len = (int32_t)harness_gen_range(g, 1, tokens < 600 ? tokens : 600);
    } else {
        c->page_size = harness_gen_page_size(g);
        c->max_context_len = (int32_t)harness_gen_range(g, 1, 600);
        c->bs = harness_gen_chance(g, 1) ? 0 /* the launcher does nothing */
                                         : (size_t)harness_gen_range(g, 1, 64);
        c->bs = region == HARNESS_GEN_ONE_ROW ? 1 : c->bs;
    }
    c->mode = (gm_mode)harness_gen_range(g, 0, GM_MODE_COUNT - 1);
    c->width = (size_t)c->max_context_len + (size_t)harness_gen_range(g, 0, 3);
    int64_t pool = harness_gen_range(g, 1, c->bs < 40 ? 40 : 64);
    int64_t room = HARNESS_GEN_TOKENS / (int64_t)c->width;
    c->pool = (size_t)(pool < room ? pool : room < 1 ? 1 : room);
}

/* The bulk fills (every element of a case's pool and mapping) take two
 * picks from one draw, by multiply-shift instead of a division: a
 * percentage from its high half, a value below `span` (at most 2^32; the
 * element budgets keep the pools far below) from its low half. They were a
 * quarter of a sweep job's time. */
static unsigned harness_gen_percent_of(uint64_t r) {
    return (unsigned)(((r >> 32) * 100u) >> 32);
}

static int64_t harness_gen_below_of(uint64_t r, uint64_t span) {
    return (int64_t)(((r & 0xffffffffu) * span) >> 32);
}

/* Token slots: 5 % -3 to -1, in a tenth of the cases 1 % a class of the
 * input space (deeper negatives, len(mapping) +- 1, int32's ends), the
 * rest in the mapping. */
static void harness_gen_tokens(harness_gen *g, gm_case *c, int64_t mapping_len) {
    uint64_t span = (uint64_t)mapping_len - 1; /* values 0 .. mapping_len - 2 */
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    x.mapping_len = mapping_len; /* the SWA mapping is drawn after the tokens */
    unsigned odd = harness_gen_chance(g, 10) ? 6 : 5; /* classes in a tenth of the cases */
    for (size_t k = 0; k < c->pool * c->width; k++) {
        uint64_t r = harness_gen_next(g);
        unsigned percent = harness_gen_percent_of(r);
        int64_t v = percent < 5     ? -3 + harness_gen_below_of(r, 3)
                    : percent < odd ? harness_gen_class_of(GM_SPACE_TOKEN, &x, r)
                                    : harness_gen_below_of(r, span);
        c->req_to_token[k] = harness_gen_low32(v);
    }
}

/* seq_lens[i]: mostly up to max_context_len; in a fifth of the cases the
 * whole batch follows one of the input space's row patterns (empty rows,
 * full rows, classes such as -2 or 2^32 + 3, a running sum past int32,
 * rows with seq_len + seqlen_offset <= 0). */
static int64_t harness_gen_row_len(harness_gen *g, const gm_case *c, int rows,
                                   const gm_space_ctx *x) {
    if (rows < 0) {
        return harness_gen_range(g, 0, c->max_context_len);
    }
    return gm_space_row_len((gm_space_rows)rows, x, gm_case_seqlen_offset(c), harness_gen_next(g));
}

/* The rows' contents: pool rows (1 % of them a class of the input space
 * in a tenth of the cases), lengths (the host copy lagging a tenth of the
 * time), q lengths (2 % a class). */
static void harness_gen_row_contents(harness_gen *g, gm_case *c) {
    size_t real = (size_t)harness_gen_range(g, 0, (int64_t)c->bs);
    bool lagging = harness_gen_chance(g, 10);
    bool odd_rows = harness_gen_chance(g, 10);
    int rows = harness_gen_chance(g, 20) ? (int)harness_gen_range(g, 0, GM_SPACE_ROWS_N - 1) : -1;
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    for (size_t i = 0; i < c->bs; i++) {
        bool padded = i >= real; /* cuda-graph padding: pool row 0, length 1 */
        c->req_pool_indices[i] = padded ? 0 : harness_gen_range(g, 0, (int64_t)c->pool - 1);
        if (odd_rows && harness_gen_chance(g, 1)) {
            c->req_pool_indices[i] = harness_gen_class_of(GM_SPACE_ROW, &x, harness_gen_next(g));
        }
        c->seq_lens[i] = padded ? 1 : harness_gen_row_len(g, c, rows, &x);
        if (c->seq_lens_cpu != NULL) { /* a shape without a host copy keeps none */
            int64_t lag = lagging ? harness_gen_range(g, 0, 2) : 0;
            c->seq_lens_cpu[i] = c->seq_lens[i] >= INT64_MIN + 2 ? c->seq_lens[i] - lag
                                                                  : c->seq_lens[i];
        }
        c->qlens[i] = harness_gen_chance(g, 2)
                          ? harness_gen_low32(
                                harness_gen_class_of(GM_SPACE_COUNT, &x, harness_gen_next(g)))
                          : (int32_t)harness_gen_range(g, 0, 8);
    }
}

/* An int32 scalar: in [lo, hi] nine times in ten, else a class of the
 * input space's small parameters (negatives, int32's ends, INT32_MAX / bs). */
static int32_t harness_gen_scalar(harness_gen *g, const gm_case *c, int64_t lo, int64_t hi) {
    return harness_gen_chance(g, 10) ? harness_gen_low32(harness_gen_class(g, GM_SPACE_COUNT, c))
                                     : (int32_t)harness_gen_range(g, lo, hi);
}

/* The scalars first: the row patterns depend on the mode's seqlen_offset. */
static void harness_gen_rows(harness_gen *g, gm_case *c) {
    c->speculative_step_id = harness_gen_scalar(g, c, 0, 3);
    c->num_draft_tokens = harness_gen_scalar(g, c, 0, 8);
    c->q_stride = harness_gen_scalar(g, c, -2, 8);
    harness_gen_row_contents(g, c);
}

/* The SWA mapping's values: a few past int32, in a fifth of the cases 1 %
 * a class of the input space (-2, int64's ends, ...), the last one mostly
 * the -1 sentinel. */
static void harness_gen_swa_mapping(harness_gen *g, gm_case *c) {
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    unsigned odd = harness_gen_chance(g, 20) ? 4 : 3; /* classes in a fifth of the cases */
    for (size_t k = 0; k < c->swa.mapping_len; k++) {
        uint64_t r = harness_gen_next(g);
        unsigned percent = harness_gen_percent_of(r);
        c->swa.mapping[k] = percent < 3     ? ((int64_t)1 << 40) + (int64_t)k
                            : percent < odd ? harness_gen_class_of(GM_SPACE_MAP, &x, r)
                                            : harness_gen_below_of(r, 100001);
    }
    c->swa.mapping[c->swa.mapping_len - 1] = harness_gen_chance(g, 80) ? -1 : 7;
}

/* This step's write locations: a tenth negative, most of those the -1
 * sentinel, the rest -2 to -4 (a guard that tests == -1 must show); in a
 * fifth of the cases 2 % a class of the input space (-len(mapping) - 1,
 * int64's ends, 2^32, ...). */
static void harness_gen_out_cache_loc(harness_gen *g, gm_case *c) {
    int64_t mapping_len = (int64_t)c->swa.mapping_len;
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    unsigned odd = harness_gen_chance(g, 20) ? 12 : 10; /* classes in a fifth of the cases */
    for (size_t t = 0; t < c->swa.n_out; t++) {
        uint64_t r = harness_gen_next(g);
        unsigned percent = harness_gen_percent_of(r);
        c->swa.out_cache_loc[t] = percent < 7     ? -1
                                  : percent < 10  ? -2 - harness_gen_below_of(r, 3)
                                  : percent < odd ? harness_gen_class_of(GM_SPACE_LOC, &x, r)
                                                  : harness_gen_below_of(r, (uint64_t)mapping_len);
    }
}

static bool harness_gen_swa(harness_gen *g, gm_case *c, int64_t mapping_len, bool force_tiles) {
    c->has_swa = true;
    c->swa.mapping_len = (size_t)mapping_len;
    c->swa.mapping = malloc(c->swa.mapping_len * sizeof(int64_t));
    if (c->swa.mapping == NULL) {
        return false;
    }
    harness_gen_swa_mapping(g, c);
    c->swa.page_table = harness_gen_chance(g, 80);
    c->swa.has_out_len = harness_gen_chance(g, 80) || force_tiles;
    /* a tenth at an edge of the SWA-out programs' 512-slot tiles, past
     * several of them (511, 512, 513, ..., 4097), len(out_cache_loc) then
     * just below, at or just above it or anywhere up to 4200 */
    bool tiles = harness_gen_chance(g, 10) || force_tiles;
    c->swa.out_len = !tiles                  ? (size_t)harness_gen_range(g, 0, 1100)
                     : harness_gen_chance(g, 5) ? 16384 /* 32 tiles */
                                                : (size_t)(512 * harness_gen_range(g, 1, 8) +
                                                           harness_gen_range(g, -1, 1));
    if (!harness_gen_chance(g, 80) && !force_tiles) {
        return true; /* no out_cache_loc this step */
    }
    bool single = harness_gen_chance(g, 3) && !force_tiles; /* broadcast by the legacy copy */
    if (single && harness_gen_chance(g, 50)) {
        c->swa.out_len = 0; /* into a slice of no element */
    }
    c->swa.n_out = single  ? 1
                   : !tiles ? (size_t)harness_gen_range(g, 0, 1200)
                   : harness_gen_chance(g, 50)
                       ? (size_t)((int64_t)c->swa.out_len + harness_gen_range(g, -1, 1))
                       : (size_t)harness_gen_range(g, 0, 4200);
    c->swa.out_cache_loc = malloc((c->swa.n_out + 1) * sizeof(int64_t));
    if (c->swa.out_cache_loc == NULL) {
        return false;
    }
    harness_gen_out_cache_loc(g, c);
    return true;
}

/* Stale contents of one output buffer from the input space's fill
 * classes: one value everywhere, or (a third of the time) one per element.
 * False only when memory runs out. */
static bool harness_gen_stale(harness_gen *g, gm_case *c) {
    gm_buf_id b = (gm_buf_id)harness_gen_range(g, 0, GM_BUF_COUNT - 1);
    int rank;
    size_t dims[2];
    if (!gm_case_buf_shape(c, b, &rank, dims)) {
        return true;
    }
    gm_init *in = &c->init[b];
    if (harness_gen_chance(g, 67)) {
        in->kind = GM_INIT_FILL;
        in->fill = harness_gen_class(g, GM_SPACE_FILL, c);
        in->fill = gm_buf_is_int64(b) ? in->fill : harness_gen_low32(in->fill);
        return true;
    }
    size_t n = dims[0] * dims[1]; /* dims[1] is 1 for a rank-1 buffer */
    in->values = malloc((n + 1) * sizeof(int64_t));
    if (in->values == NULL) {
        return false;
    }
    gm_space_ctx x;
    gm_space_ctx_of(c, &x);
    for (size_t k = 0; k < n; k++) {
        uint64_t r = harness_gen_next(g);
        in->values[k] = harness_gen_class_of(GM_SPACE_FILL, &x, r);
        in->values[k] = gm_buf_is_int64(b) ? in->values[k] : harness_gen_low32(in->values[k]);
    }
    in->kind = GM_INIT_ARRAY;
    in->len = n;
    return true;
}

/* A corner of several rare values at once (gm_space_corner) in 1 % of the
 * cases, picked by a hash of the generator's state that draws nothing from
 * it: every other case of a (seed, index) stays the case it was before the
 * corners, so that sweeps named by their seed keep finding the same cases
 * across versions (a regression range is looked for by running the same
 * case on other builds). */
static bool harness_gen_corner(const harness_gen *g, gm_case *c, gm_error *err) {
    uint64_t pick = gm_hash_mix(g->state ^ HARNESS_GEN_CORNER_SALT);
    if (pick % 100 != 0) {
        return true;
    }
    unsigned k = (unsigned)((pick >> 32) % GM_SPACE_CORNER_N);
    return gm_space_corner_apply(k, c, pick >> 8) || harness_gen_no_memory(err);
}

bool harness_gen_case(harness_gen *g, gm_case *c, gm_error *err) {
    return harness_gen_case_in(g, HARNESS_GEN_ANYWHERE, c, err);
}

bool harness_gen_case_in(harness_gen *g, harness_gen_region region, gm_case *c, gm_error *err) {
    harness_gen_dimensions(g, c, region);
    int64_t mapping_len = (int64_t)(c->pool * c->width) + c->page_size + 1;
    c->req_to_token = malloc(c->pool * c->width * sizeof(int32_t));
    c->req_pool_indices = malloc((c->bs + 1) * sizeof(int64_t));
    c->seq_lens = malloc((c->bs + 1) * sizeof(int64_t));
    c->seq_lens_cpu = malloc((c->bs + 1) * sizeof(int64_t));
    c->qlens = malloc((c->bs + 1) * sizeof(int32_t));
    if (!c->req_to_token || !c->req_pool_indices || !c->seq_lens || !c->seq_lens_cpu || !c->qlens) {
        return harness_gen_no_memory(err);
    }
    harness_gen_tokens(g, c, mapping_len);
    harness_gen_rows(g, c);
    if (harness_gen_chance(g, 3)) { /* no host copy: the legacy path takes seq_lens' max */
        free(c->seq_lens_cpu);
        c->seq_lens_cpu = NULL;
    }
    bool tiles = region == HARNESS_GEN_SWA_TILES;
    if ((harness_gen_chance(g, 60) || tiles) && !harness_gen_swa(g, c, mapping_len, tiles)) {
        return harness_gen_no_memory(err);
    }
    if (harness_gen_chance(g, 30)) {
        c->init[GM_BUF_PAGE_TABLE].kind = GM_INIT_FILL; /* stale contents */
        c->init[GM_BUF_PAGE_TABLE].fill = -7;
    }
    if (harness_gen_chance(g, 10) && !harness_gen_stale(g, c)) {
        return harness_gen_no_memory(err);
    }
    if (harness_gen_chance(g, 5)) { /* a page-table width given, at and around the table's */
        int64_t pages = (int64_t)gm_case_max_num_pages(c);
        const int64_t picks[6] = {pages, pages - 1, pages + 1, 0, 1, 2 * pages};
        c->has_max_seq_pages = true;
        c->max_seq_pages = (int32_t)picks[harness_gen_range(g, 0, 5)];
    }
    if (c->has_swa && c->swa.has_out_len && harness_gen_chance(g, 30)) {
        /* last step's write locations still there: the zero-padded tail
         * and the no-out_cache_loc zeroing must show */
        c->init[GM_BUF_SWA_OUT_CACHE_LOC].kind = GM_INIT_FILL;
        c->init[GM_BUF_SWA_OUT_CACHE_LOC].fill = 5;
    }
    return harness_gen_corner(g, c, err);
}

bool harness_gen_case_like(harness_gen *g, const gm_case *shape, gm_case *c, gm_error *err) {
    if (!gm_case_copy(c, shape, err)) {
        return false;
    }
    harness_gen_tokens(g, c, (int64_t)(c->pool * c->width) + c->page_size + 1);
    harness_gen_row_contents(g, c);
    if (c->has_swa) {
        harness_gen_swa_mapping(g, c);
        if (c->swa.out_cache_loc != NULL) {
            harness_gen_out_cache_loc(g, c);
        }
    }
    return true;
}

/* ---- a case of a given specialization class ------------------------------ */

/* The smallest power of two >= n (n >= 1). */
static int64_t harness_gen_pow2_ceil(int64_t n) {
    int64_t p = 1;
    while (p < n) {
        p *= 2;
    }
    return p;
}

/* A value in [lo, hi] whose specialization (harness_class_of_int) has the
 * divisibility of `want` (1, a multiple of 16, neither); `fallback` when
 * the range holds none or none is found. */
static int64_t harness_gen_of_int_class(harness_gen *g, uint8_t want, int64_t lo, int64_t hi,
                                        int64_t fallback) {
    uint8_t div = want & 3;
    if (lo > hi) {
        return fallback;
    }
    if (div == HARNESS_CLASS_ONE) {
        return lo <= 1 && 1 <= hi ? 1 : fallback;
    }
    if (div == HARNESS_CLASS_SIXTEEN) {
        int64_t first = lo >= 0 ? (lo + 15) / 16 * 16 : -((-lo) / 16 * 16);
        int64_t last = hi >= 0 ? hi / 16 * 16 : -((-hi + 15) / 16 * 16);
        return first > last ? fallback : first + 16 * harness_gen_range(g, 0, (last - first) / 16);
    }
    for (int tries = 0; tries < 16; tries++) {
        int64_t v = harness_gen_range(g, lo, hi);
        if ((harness_class_of_int(v) & 3) == HARNESS_CLASS_OTHER) {
            return v;
        }
    }
    return fallback;
}

/* (2^(k-1), 2^k] around n: the power-of-two class of n. */
static void harness_gen_pow2_bucket(int64_t n, int64_t *lo, int64_t *hi) {
    *hi = harness_gen_pow2_ceil(n < 1 ? 1 : n);
    *lo = *hi / 2 + 1;
}

/* The sizes of a case of class `k` like `like`: bs, pages, width, pool. */
static void harness_gen_class_sizes(harness_gen *g, const gm_case *like, const harness_class *k,
                                    gm_case *c) {
    int64_t lo, hi;
    harness_gen_pow2_bucket((int64_t)like->bs, &lo, &hi);
    c->bs = (size_t)harness_gen_of_int_class(g, k->ints[HARNESS_CLASS_BS], lo, hi,
                                             (int64_t)like->bs);
    int64_t pages_like = (int64_t)gm_case_max_num_pages(like);
    harness_gen_pow2_bucket(pages_like, &lo, &hi);
    int64_t room = HARNESS_GEN_CELLS / (int64_t)c->bs;
    hi = hi < room ? hi : room > pages_like ? room : pages_like;
    int64_t pages = harness_gen_of_int_class(g, k->ints[HARNESS_CLASS_TABLE_STRIDE], lo, hi,
                                             pages_like);
    harness_gen_pages(g, c, pages);
    int64_t mcl = c->max_context_len;
    int64_t width = harness_gen_of_int_class(g, k->ints[HARNESS_CLASS_REQ_STRIDE], mcl, mcl + 16,
                                             -1);
    c->width = width < mcl ? 0 : (size_t)width; /* 0: none of the class near it */
    int64_t pool = harness_gen_range(g, 1, c->bs < 40 ? 40 : 64);
    int64_t tokens = HARNESS_GEN_TOKENS / (int64_t)(c->width > 0 ? c->width : 1);
    c->pool = (size_t)(pool < tokens ? pool : tokens < 1 ? 1 : tokens);
}

/* The SWA parts of a case like `like`, of class `k`. */
static bool harness_gen_class_swa(harness_gen *g, const gm_case *like, const harness_class *k,
                                  gm_case *c) {
    c->has_swa = true;
    c->swa.mapping_len = c->pool * c->width + (size_t)c->page_size + 1;
    c->swa.mapping = malloc(c->swa.mapping_len * sizeof(int64_t));
    if (c->swa.mapping == NULL) {
        return false;
    }
    harness_gen_swa_mapping(g, c);
    c->swa.page_table = like->swa.page_table;
    c->swa.has_out_len = like->swa.has_out_len;
    int64_t lo, hi;
    harness_gen_pow2_bucket((int64_t)like->swa.out_len, &lo, &hi);
    c->swa.out_len = like->swa.out_len == 0
                         ? 0
                         : (size_t)harness_gen_of_int_class(g, k->ints[HARNESS_CLASS_OUT_LEN],
                                                            lo, hi, (int64_t)like->swa.out_len);
    if (like->swa.out_cache_loc == NULL) {
        return true;
    }
    bool covers = like->swa.n_out >= like->swa.out_len; /* tokens = out_len, else n */
    int64_t extra = covers ? (int64_t)(like->swa.n_out - like->swa.out_len) : 0;
    c->swa.n_out = !c->swa.has_out_len ? (size_t)harness_gen_range(g, 0, 1200)
                   : covers ? c->swa.out_len + (size_t)harness_gen_range(g, 0, extra)
                            : (size_t)harness_gen_of_int_class(
                                  g, k->ints[HARNESS_CLASS_NUM_OUT_TOKENS], 0,
                                  (int64_t)c->swa.out_len - 1, (int64_t)like->swa.n_out);
    c->swa.out_cache_loc = malloc((c->swa.n_out + 1) * sizeof(int64_t));
    if (c->swa.out_cache_loc == NULL) {
        return false;
    }
    harness_gen_out_cache_loc(g, c);
    return true;
}

/* A fresh case of `like`'s class into `c`; false when memory ran out or the
 * class could not be kept (`c` then to be freed and drawn otherwise). */
static bool harness_gen_try_in_class(harness_gen *g, const gm_case *like, const harness_class *k,
                                     gm_case *c, bool *memory) {
    *memory = true;
    c->mode = like->mode;
    c->page_size = like->page_size;
    c->speculative_step_id = like->speculative_step_id;
    c->num_draft_tokens = like->num_draft_tokens;
    c->q_stride = (int32_t)harness_gen_of_int_class(g, k->ints[HARNESS_CLASS_Q_STRIDE], -2, 8,
                                                    like->q_stride);
    harness_gen_class_sizes(g, like, k, c);
    if (c->width < (size_t)c->max_context_len) { /* no width of the class near it */
        return false;
    }
    c->req_to_token = malloc(c->pool * c->width * sizeof(int32_t));
    c->req_pool_indices = malloc(c->bs * sizeof(int64_t));
    c->seq_lens = malloc(c->bs * sizeof(int64_t));
    c->seq_lens_cpu = malloc(c->bs * sizeof(int64_t));
    c->qlens = malloc(c->bs * sizeof(int32_t));
    if (!c->req_to_token || !c->req_pool_indices || !c->seq_lens || !c->seq_lens_cpu || !c->qlens) {
        return *memory = false;
    }
    harness_gen_tokens(g, c, (int64_t)(c->pool * c->width) + c->page_size + 1);
    harness_gen_row_contents(g, c);
    if (like->has_swa && !harness_gen_class_swa(g, like, k, c)) {
        return *memory = false;
    }
    for (int b = 0; b < GM_BUF_COUNT; b++) { /* stale contents as like's (not an array) */
        c->init[b].kind = like->init[b].kind == GM_INIT_FILL ? GM_INIT_FILL : GM_INIT_DEFAULT;
        c->init[b].fill = like->init[b].fill;
    }
    harness_class got;
    harness_class_of(c, &got);
    return harness_class_key(&got) == harness_class_key(k);
}

bool harness_gen_case_in_class(harness_gen *g, const gm_case *like, gm_case *c, gm_error *err) {
    harness_class k;
    harness_class_of(like, &k);
    bool memory = true;
    bool plain = !like->has_max_seq_pages && like->seq_lens_cpu != NULL && like->qlens != NULL &&
                 like->bs > 0;
    if (plain && harness_gen_try_in_class(g, like, &k, c, &memory)) {
        return true;
    }
    gm_case_free(c);
    gm_case_init(c);
    if (!memory) {
        return harness_gen_no_memory(err);
    }
    return harness_gen_case_like(g, like, c, err); /* its sizes, new contents */
}
