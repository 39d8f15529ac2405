#include "gm_space.h"

#include <stdlib.h>
#include <string.h>

/* What a class's terms multiply: a size of the case. */
typedef enum {
    GM_SPACE_B_NONE, /* 0: the class is a constant */
    GM_SPACE_B_P,    /* page_size */
    GM_SPACE_B_M,    /* max_context_len */
    GM_SPACE_B_W,    /* width of req_to_token */
    GM_SPACE_B_POOL,
    GM_SPACE_B_BS,
    GM_SPACE_B_PAGES,    /* max_num_pages */
    GM_SPACE_B_PAGES_P,  /* max_num_pages * page_size */
    GM_SPACE_B_FULL,     /* pool * width */
    GM_SPACE_B_MAPLEN,   /* len(mapping) */
    GM_SPACE_B_M_HALF,   /* max_context_len / 2 */
    GM_SPACE_B_I32_ROWS, /* INT32_MAX / max(bs, 1): a row's share of int32 */
} gm_space_base;

typedef struct {
    uint8_t b1;
    int8_t m1;
    uint8_t b2;
    int8_t m2;
    int64_t add;
    const char *name;
} gm_space_class;

#define GM_2P31 ((int64_t)1 << 31)
#define GM_2P32 ((int64_t)1 << 32)
#define GM_2P40 ((int64_t)1 << 40)
/* A constant; one size times m plus add; two sizes. */
#define K(v, name) {GM_SPACE_B_NONE, 0, GM_SPACE_B_NONE, 0, (v), (name)}
#define R(b, m, v, name) {GM_SPACE_B_##b, (m), GM_SPACE_B_NONE, 0, (v), (name)}
#define R2(b1, m1, b2, m2, v, name) {GM_SPACE_B_##b1, (m1), GM_SPACE_B_##b2, (m2), (v), (name)}

static const gm_space_class gm_space_seq[] = {
    K(0, "zero"), K(1, "one"), K(2, "two"), K(-1, "neg1"), K(-2, "neg2"),
    K(INT32_MAX, "int32_max"), K(INT32_MAX - 1, "int32_max_m1"), K(GM_2P31, "2p31"),
    K(GM_2P31 + 5, "2p31p5"), K(INT32_MIN, "int32_min"), K((int64_t)INT32_MIN - 1, "int32_min_m1"),
    K(GM_2P32 - 1, "2p32_m1"), K(GM_2P32, "2p32"), K(GM_2P32 + 3, "2p32p3"),
    K(INT64_MAX, "int64_max"), K(INT64_MIN, "int64_min"), R(P, 1, -1, "page_m1"),
    R(P, 1, 0, "page"), R(P, 1, 1, "page_p1"), R(P, 2, -1, "page2_m1"), R(P, 2, 0, "page2"),
    R(P, 2, 1, "page2_p1"), R(M, 1, -1, "mcl_m1"), R(M, 1, 0, "mcl"), R(M, 1, 1, "mcl_p1"),
    R2(M, 1, P, 1, 0, "mcl_page"), R2(M, 1, P, 1, -1, "mcl_page_m1"), R(W, 1, 0, "width"),
    R(W, 1, 1, "width_p1"), R(PAGES_P, 1, 0, "row_tokens"), R(PAGES_P, 1, 1, "row_tokens_p1"),
    R(P, -1, 0, "neg_page"), R2(M, 1, P, 2, 0, "mcl_page2"), R(M_HALF, 1, 0, "mcl_half"),
};

static const gm_space_class gm_space_token[] = {
    K(-1, "neg1"), K(-2, "neg2"), K(-3, "neg3"), R(P, -1, 0, "neg_page"),
    R(P, -1, -1, "neg_page_m1"), R(P, -1, 1, "neg_page_p1"), K(0, "zero"), K(1, "one"),
    R(P, 1, -1, "page_m1"), R(P, 1, 0, "page"), R(P, 1, 1, "page_p1"), R(FULL, 1, -1, "full_m1"),
    R(FULL, 1, 0, "full"), R(MAPLEN, 1, -1, "maplen_m1"), R(MAPLEN, 1, 0, "maplen"),
    R(MAPLEN, 1, 1, "maplen_p1"), R(MAPLEN, -1, 0, "neg_maplen"),
    R(MAPLEN, -1, -1, "neg_maplen_m1"), R(MAPLEN, -1, 1, "neg_maplen_p1"),
    K(INT32_MAX, "int32_max"), K(INT32_MIN, "int32_min"), K(INT32_MIN + 1, "int32_min_p1"),
    K(1 << 30, "2p30"), R(W, 1, 0, "width"), R(W, 1, -1, "width_m1"), R(P, -2, 0, "neg_page2"),
    K(-(1 << 30), "neg_2p30"), K(-128, "neg128"), K(-129, "neg129"),
    R(P, -1, (int64_t)INT32_MAX + 1, "int32_max_page"),
};

static const gm_space_class gm_space_row[] = {
    K(0, "zero"), K(1, "one"), R(POOL, 1, -1, "pool_m1"), R(POOL, 1, 0, "pool"),
    R(POOL, 1, 1, "pool_p1"), K(-1, "neg1"), K(-2, "neg2"), R(POOL, -1, 0, "neg_pool"),
    R(POOL, -1, -1, "neg_pool_m1"), R(POOL, -1, 1, "neg_pool_p1"), R(POOL, 2, 0, "pool2"),
    K(INT32_MAX, "int32_max"), K(INT32_MIN, "int32_min"), K(GM_2P32, "2p32"),
    K(GM_2P32 + 1, "2p32p1"), K(INT64_MAX, "int64_max"), K(INT64_MIN, "int64_min"),
    R(BS, 1, -1, "bs_m1"), R(BS, 1, 0, "bs"),
};

static const gm_space_class gm_space_map[] = {
    K(-1, "neg1"), K(-2, "neg2"), K(-3, "neg3"), K(0, "zero"), K(1, "one"),
    K(INT32_MAX, "int32_max"), K(GM_2P31, "2p31"), K(GM_2P31 + 1, "2p31p1"),
    K(INT32_MIN, "int32_min"), K((int64_t)INT32_MIN - 1, "int32_min_m1"), K(GM_2P32, "2p32"),
    K(GM_2P32 + 1, "2p32p1"), K(GM_2P32 - 1, "2p32_m1"), K(GM_2P40 + 3, "2p40p3"),
    K(-GM_2P40, "neg_2p40"), K(INT64_MAX, "int64_max"), K(INT64_MIN, "int64_min"),
    R(P, 1, 0, "page"), R(P, 1, -1, "page_m1"), R(P, -1, GM_2P31, "2p31_m_page"),
    R(P, 1, GM_2P32, "2p32_p_page"), R(FULL, 1, 0, "full"), R(MAPLEN, 1, 0, "maplen"),
    R(P, -1, INT64_MIN, "int64_max_page"), /* INT64_MAX - P + 1, wrapping */
};

static const gm_space_class gm_space_loc[] = {
    K(-1, "neg1"), K(-2, "neg2"), K(-3, "neg3"), R(MAPLEN, -1, 0, "neg_maplen"),
    R(MAPLEN, -1, -1, "neg_maplen_m1"), R(MAPLEN, -1, 1, "neg_maplen_p1"),
    R(MAPLEN, 1, -1, "maplen_m1"), R(MAPLEN, 1, 0, "maplen"), R(MAPLEN, 1, 1, "maplen_p1"),
    K(0, "zero"), K(1, "one"), K(INT64_MIN, "int64_min"), K(INT64_MAX, "int64_max"),
    K(INT32_MIN, "int32_min"), K(INT32_MAX, "int32_max"), K(GM_2P32, "2p32"),
    R(FULL, 1, -1, "full_m1"), R(FULL, 1, 0, "full"), R(MAPLEN, 2, 0, "maplen2"),
};

static const gm_space_class gm_space_count_table[] = {
    K(0, "zero"), K(1, "one"), K(2, "two"), K(3, "three"), K(4, "four"), K(7, "seven"),
    K(8, "eight"), K(-1, "neg1"), K(-2, "neg2"), K(-3, "neg3"), K(INT32_MAX, "int32_max"),
    K(INT32_MIN, "int32_min"), K(INT32_MAX - 1, "int32_max_m1"), K(1 << 30, "2p30"),
    K(1 << 16, "2p16"), R(BS, 1, 0, "bs"), R(P, 1, 0, "page"), R(I32_ROWS, 1, 1, "sum_wrap"),
    K(-(1 << 30), "neg_2p30"), K(5, "five"), K(64, "sixty_four"),
};

static const gm_space_class gm_space_step[] = {
    K(0, "zero"), K(1, "one"), K(-1, "neg1"), K(2, "two"), K(3, "three"), R(P, 1, 0, "page"),
    R(P, -1, 0, "neg_page"), R(P, 1, 1, "page_p1"), R(P, 1, -1, "page_m1"), R(W, 1, 0, "width"),
    K(INT32_MAX, "int32_max"), K(INT32_MIN, "int32_min"), K(GM_2P31, "2p31"),
    K(GM_2P32, "2p32"), K(INT64_MAX, "int64_max"), K(INT64_MIN, "int64_min"),
};

static const gm_space_class gm_space_rowstep[] = {
    R(W, 1, 0, "width"), K(0, "zero"), K(1, "one"), R(P, 1, 0, "page"), R(W, 1, 1, "width_p1"),
    R(W, 1, -1, "width_m1"), R(W, -1, 0, "neg_width"), R(W, 2, 0, "width2"),
    K(INT32_MAX, "int32_max"), R(PAGES_P, 1, 0, "row_tokens"), K(-1, "neg1"),
};

static const gm_space_class gm_space_fill[] = {
    K(0, "zero"), K(-1, "neg1"), K(1, "one"), K(-7, "neg7"), K(1234, "n1234"),
    K(INT32_MAX, "int32_max"), K(INT32_MIN, "int32_min"), K(0x5a5a5a5a, "x5a5a5a5a"),
    K(-2, "neg2"), R(P, 1, 0, "page"), K(GM_2P40, "2p40"), K(INT64_MIN, "int64_min"),
    K(INT64_MAX, "int64_max"), K(-1234, "neg1234"), K(0x7fff, "x7fff"), R(PAGES, 1, 0, "pages"),
};

typedef struct {
    const gm_space_class *classes;
    unsigned count;
    const char *name;
} gm_space_table;

#define GM_SPACE_TABLE(t, name) {(t), (unsigned)(sizeof(t) / sizeof((t)[0])), (name)}

static const gm_space_table gm_space_tables[GM_SPACE_N] = {
    [GM_SPACE_SEQ] = GM_SPACE_TABLE(gm_space_seq, "seq"),
    [GM_SPACE_TOKEN] = GM_SPACE_TABLE(gm_space_token, "token"),
    [GM_SPACE_ROW] = GM_SPACE_TABLE(gm_space_row, "row"),
    [GM_SPACE_MAP] = GM_SPACE_TABLE(gm_space_map, "map"),
    [GM_SPACE_LOC] = GM_SPACE_TABLE(gm_space_loc, "loc"),
    [GM_SPACE_COUNT] = GM_SPACE_TABLE(gm_space_count_table, "count"),
    [GM_SPACE_STEP] = GM_SPACE_TABLE(gm_space_step, "step"),
    [GM_SPACE_ROWSTEP] = GM_SPACE_TABLE(gm_space_rowstep, "rowstep"),
    [GM_SPACE_FILL] = GM_SPACE_TABLE(gm_space_fill, "fill"),
};

unsigned gm_space_count(gm_space_input in) { return gm_space_tables[in].count; }

const char *gm_space_input_name(gm_space_input in) {
    return (unsigned)in < GM_SPACE_N ? gm_space_tables[in].name : "?";
}

const char *gm_space_name(gm_space_input in, unsigned k) {
    return k < gm_space_count(in) ? gm_space_tables[in].classes[k].name : NULL;
}

/* The two's complement int64 of u, without an implementation-defined cast. */
static int64_t gm_space_i64(uint64_t u) {
    int64_t s;
    memcpy(&s, &u, sizeof s);
    return s;
}

static int64_t gm_space_base_value(const gm_space_ctx *x, uint8_t b) {
    switch ((gm_space_base)b) {
    case GM_SPACE_B_P: return x->page_size;
    case GM_SPACE_B_M: return x->max_context_len;
    case GM_SPACE_B_W: return x->width;
    case GM_SPACE_B_POOL: return x->pool;
    case GM_SPACE_B_BS: return x->bs;
    case GM_SPACE_B_PAGES: return x->max_num_pages;
    case GM_SPACE_B_PAGES_P: /* bounded sizes: unsigned only to stay clear of UB */
        return gm_space_i64((uint64_t)x->max_num_pages * (uint64_t)x->page_size);
    case GM_SPACE_B_FULL: return x->full_size;
    case GM_SPACE_B_MAPLEN: return x->mapping_len;
    case GM_SPACE_B_M_HALF: return x->max_context_len / 2;
    case GM_SPACE_B_I32_ROWS: return INT32_MAX / (x->bs > 0 ? x->bs : 1);
    default: return 0;
    }
}

int64_t gm_space_value(gm_space_input in, const gm_space_ctx *ctx, unsigned k) {
    const gm_space_table *t = &gm_space_tables[in];
    const gm_space_class *c = &t->classes[k % t->count];
    uint64_t v = (uint64_t)c->add;
    if (c->b1 != GM_SPACE_B_NONE) { /* sizes are bounded: the wrap is only the constants' */
        v += (uint64_t)(int64_t)c->m1 * (uint64_t)gm_space_base_value(ctx, c->b1);
        v += (uint64_t)(int64_t)c->m2 * (uint64_t)gm_space_base_value(ctx, c->b2);
    }
    return gm_space_i64(v);
}

int gm_space_has(gm_space_input in, const gm_space_ctx *ctx, int64_t v) {
    for (unsigned k = 0; k < gm_space_count(in); k++) {
        if (gm_space_value(in, ctx, k) == v) {
            return 1;
        }
    }
    return 0;
}

/* ---- sizes ------------------------------------------------------------- */

const int32_t gm_space_edges[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
const size_t gm_space_edge_count = sizeof(gm_space_edges) / sizeof(gm_space_edges[0]);

int64_t gm_space_edge_size(unsigned k) {
    k %= (unsigned)(3 * gm_space_edge_count);
    return (int64_t)gm_space_edges[k / 3] + (int64_t)(k % 3) - 1;
}

const int32_t gm_space_page_sizes[] = {1,  2,  3,  4,  5,   6,   7,   8,   9,   12,  15,  16, 17,
                                       31, 32, 33, 63, 64,  65,  100, 127, 128, 129, 255, 256};
const size_t gm_space_page_size_count =
    sizeof(gm_space_page_sizes) / sizeof(gm_space_page_sizes[0]);

/* ---- whole rows ---------------------------------------------------------- */

int64_t gm_space_row_len(gm_space_rows rows, const gm_space_ctx *ctx, int64_t offset,
                         uint64_t draw) {
    int64_t M = ctx->max_context_len;
    int64_t live = (int64_t)((draw >> 2) % (uint64_t)(M + 1));
    switch (rows) {
    case GM_SPACE_ROWS_EMPTY: return 0;
    case GM_SPACE_ROWS_FULL: return M;
    case GM_SPACE_ROWS_CLASSES:
        return draw & 3 ? live
                        : gm_space_value(GM_SPACE_SEQ, ctx,
                                         (unsigned)((draw >> 2) % gm_space_count(GM_SPACE_SEQ)));
    case GM_SPACE_ROWS_SUM_WRAP: return INT32_MAX / (ctx->bs > 0 ? ctx->bs : 1) + 1;
    case GM_SPACE_ROWS_NONPOS:
        /* half the rows at seq_len + offset = 0, -1 or -2, the rest live */
        return draw & 1 ? -offset - (int64_t)((draw >> 2) % 3) : live;
    default: return 0;
    }
}

void gm_space_ctx_of(const gm_case *c, gm_space_ctx *x) {
    x->page_size = c->page_size;
    x->max_context_len = c->max_context_len;
    x->width = (int64_t)c->width;
    x->pool = (int64_t)c->pool;
    x->bs = (int64_t)c->bs;
    x->max_num_pages = (int64_t)gm_case_max_num_pages(c);
    x->full_size = (int64_t)(c->pool * c->width);
    x->mapping_len = c->has_swa ? (int64_t)c->swa.mapping_len : 0;
    x->out_len = c->has_swa && c->swa.has_out_len ? (int64_t)c->swa.out_len : 0;
}

/* ---- corners ---------------------------------------------------------------- */

static void gm_space_corner_lens_below_int64(gm_case *c, uint64_t draw) {
    /* offset = step + 1 = -(P + d): M + P - 1 = INT64_MIN - d - 1 */
    int64_t step = -(int64_t)c->page_size - 1 - (int64_t)(draw % 3);
    c->mode = GM_MODE_DRAFT_DECODE;
    c->speculative_step_id = step >= INT32_MIN ? (int32_t)step : INT32_MIN;
    for (size_t i = 0; i < c->bs; i++) {
        c->seq_lens[i] = INT64_MIN;
        if (c->seq_lens_cpu != NULL) {
            c->seq_lens_cpu[i] = INT64_MIN;
        }
    }
}

/* v as int64 modulo 2^64 (two's complement), without an out-of-range conversion. */
static int64_t gm_space_as_int64(uint64_t v) {
    return v >= ((uint64_t)1 << 63) ? -(int64_t)(~v) - 1 : (int64_t)v;
}

/* A pool row r out of range whose r * width wraps to a small slot:
 * for width = 2^s * odd (s >= 1), r = 2^(64 - s) gives 0 (row 0); for an
 * odd width, its inverse modulo 2^64 gives 1 (Newton's iteration doubles
 * the correct low bits each step: 3, 6, ..., 96). */
static int64_t gm_space_wrapping_row(uint64_t width) {
    if (width <= 1) {
        return INT64_MIN; /* r * 1 is r: no such row (the kernel sees this one) */
    }
    if ((width & 1) == 0) {
        unsigned s = 0;
        for (uint64_t w = width; (w & 1) == 0; w >>= 1) {
            s++;
        }
        return gm_space_as_int64((uint64_t)1 << (64 - s));
    }
    uint64_t inv = width;
    for (int k = 0; k < 5; k++) {
        inv *= 2 - width * inv;
    }
    return gm_space_as_int64(inv);
}

static bool gm_space_corner_wrapped_rows(gm_case *c, uint64_t draw) {
    if (c->mode == GM_MODE_DRAFT_DECODE) {
        c->mode = GM_MODE_DECODE; /* draft_decode takes M from the device copy */
    }
    if (c->seq_lens_cpu == NULL && c->bs > 0) {
        c->seq_lens_cpu = malloc(c->bs * sizeof(int64_t));
        if (c->seq_lens_cpu == NULL) {
            return false;
        }
    }
    int64_t row = gm_space_wrapping_row((uint64_t)c->width);
    int64_t offset = gm_case_seqlen_offset(c);
    int64_t live = c->max_context_len > 0 ? c->max_context_len : 1;
    for (size_t i = 0; i < c->bs; i++) {
        c->req_pool_indices[i] = row;
        c->seq_lens_cpu[i] = -offset; /* M = 0: the legacy slice is empty */
        c->seq_lens[i] = -offset + 1 + (int64_t)((draw + i) % (uint64_t)live);
    }
    size_t pages = gm_case_max_num_pages(c);
    c->has_max_seq_pages = true;
    c->max_seq_pages = pages < 1 ? 1 : pages > INT32_MAX ? INT32_MAX : (int32_t)pages;
    return true;
}

bool gm_space_corner_apply(unsigned k, gm_case *c, uint64_t draw) {
    if (c->bs > 0 && (c->seq_lens == NULL || c->req_pool_indices == NULL)) {
        return true; /* not a whole case: nothing to turn */
    }
    switch ((gm_space_corner)(k % GM_SPACE_CORNER_N)) {
    case GM_SPACE_CORNER_LENS_BELOW_INT64: gm_space_corner_lens_below_int64(c, draw); return true;
    case GM_SPACE_CORNER_WRAPPED_ROWS: return gm_space_corner_wrapped_rows(c, draw);
    default: return true;
    }
}

const char *gm_space_corner_name(unsigned k) {
    static const char *const names[GM_SPACE_CORNER_N] = {"lens_below_int64", "wrapped_rows"};
    return k < GM_SPACE_CORNER_N ? names[k] : NULL;
}
