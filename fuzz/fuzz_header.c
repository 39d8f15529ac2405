#include "fuzz_header.h"

#include <string.h>

#include "fuzz_int.h"

/* The header as selectors and payloads, before interpretation. */
typedef struct {
    uint8_t sel[FUZZ_HEADER_LEN];
    uint64_t raw[FUZZ_HEADER_LEN];
} fuzz_header_bytes;

#define FUZZ_H_RAW 0xFF /* the raw selector of size fields */
#define FUZZ_ABSENT UINT64_MAX

/* ---- size fields: selector tables, raw payload when sel == 0xFF -------- */

typedef struct {
    unsigned offset; /* its payload width: fuzz_header_kinds */
    uint64_t (*decode)(uint8_t sel, uint64_t raw, const fuzz_recipe *r);
    uint64_t (*raw_of)(uint64_t v, const fuzz_recipe *r); /* the payload that gives v */
} fuzz_header_size;

static uint64_t fuzz_header_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The raw payload (4 bytes) of a size that the big shapes stretched
 * (bs, max_context_len, the width's extra, the pool): r mod (common + 1),
 * the range these sizes had before, unless the payload's top four bits
 * are all set (r >= 0xF0000000): then r mod (max + 1). A mutated payload
 * mostly stays in the cheap range (15 in 16); every value up to max is
 * one payload. */
#define FUZZ_H_WIDE_RAW 0xF0000000u

static uint64_t fuzz_header_raw_size(uint64_t raw, uint64_t common, uint64_t max) {
    common = fuzz_header_min(common, max);
    return raw >= FUZZ_H_WIDE_RAW ? raw % (max + 1) : raw % (common + 1);
}

static uint64_t fuzz_header_raw_size_payload(uint64_t v, uint64_t common, uint64_t max) {
    if (v <= fuzz_header_min(common, max)) {
        return v;
    }
    uint64_t base = FUZZ_H_WIDE_RAW % (max + 1);
    return FUZZ_H_WIDE_RAW + (v + (max + 1) - base) % (max + 1);
}

/* The common ranges (what the raw payloads gave before the big shapes). */
#define FUZZ_H_COMMON_BS 8193u
#define FUZZ_H_COMMON_MCL 8192u
#define FUZZ_H_COMMON_EXTRA 8448u
#define FUZZ_H_COMMON_POOL 16384u
static uint64_t fuzz_header_raw_minus_one(uint64_t v, const fuzz_recipe *r) { (void)r; return v - 1; }
static uint64_t fuzz_header_raw_same(uint64_t v, const fuzz_recipe *r) { (void)r; return v; }

static uint64_t fuzz_header_page_size(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    static const uint16_t common[16] = {16, 1, 64, 2, 3, 128, 16, 32, 4, 8, 1, 64, 16, 5, 7, 256};
    static const uint16_t other[15] = {6, 9, 12, 15, 17, 31, 33, 63, 65, 127, 129, 255, 257, 1024, 4096};
    (void)r;
    if (sel < 0xF0) {
        return common[sel % 16];
    }
    return sel < FUZZ_H_RAW ? other[sel - 0xF0] : 1 + raw % INT32_MAX;
}

/* The longest max_context_len for the page size: FUZZ_MCL_MAX tokens and
 * FUZZ_PAGES_MAX pages. */
static uint64_t fuzz_header_mcl_limit(const fuzz_recipe *r) {
    uint64_t by_pages = (uint64_t)FUZZ_PAGES_MAX * (uint64_t)r->page_size;
    return by_pages < FUZZ_MCL_MAX ? by_pages : FUZZ_MCL_MAX;
}

/* Kept in [1, limit]. */
static uint64_t fuzz_header_mcl_normal(int64_t v, uint64_t limit) {
    if (v < 1) {
        return 1;
    }
    return (uint64_t)v > limit ? 1 + (uint64_t)(v - 1) % limit : (uint64_t)v;
}

/* Mostly whole pages +- a little: a length that is not a multiple of the
 * page size is common on purpose. A few selectors make a wide page table
 * (a thousand pages and more: rows past one block of the row programs),
 * as many pages as the limits leave for the page size. */
static uint64_t fuzz_header_mcl(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    static const uint16_t edges[15] = {4096, 4097, 8192, 2048, 2047, 1000, 1023, 1025,
                                       513,  129,  255,  256,  300,  4095, 3};
    static const uint16_t wide[4] = {1024, 4096, 4097, 16384};
    int64_t P = r->page_size;
    uint64_t limit = fuzz_header_mcl_limit(r);
    if (sel < 0x80) {
        const int64_t adjust[16] = {0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 1, 1, 2, -2, P / 2, 3};
        return fuzz_header_mcl_normal((1 + (sel & 7)) * P + adjust[sel >> 3], limit);
    }
    if (sel < 0xEC) {
        return 1u + (sel - 0x80u);
    }
    if (sel < 0xF0) {
        uint64_t pages = fuzz_header_min(wide[sel - 0xEC], limit / (uint64_t)P);
        return fuzz_header_mcl_normal((int64_t)(pages * (uint64_t)P), limit);
    }
    return sel < FUZZ_H_RAW ? edges[sel - 0xF0]
                            : 1 + fuzz_header_raw_size(raw, FUZZ_H_COMMON_MCL - 1, limit - 1);
}

static uint64_t fuzz_header_mcl_raw(uint64_t v, const fuzz_recipe *r) {
    return fuzz_header_raw_size_payload(v - 1, FUZZ_H_COMMON_MCL - 1, fuzz_header_mcl_limit(r) - 1);
}

/* The width is max_context_len plus an extra: usually none. */
static uint64_t fuzz_header_width(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t P = (uint64_t)r->page_size;
    uint64_t extra = fuzz_header_raw_size(raw, FUZZ_H_COMMON_EXTRA, FUZZ_WIDTH_MAX);
    if (sel < 0xA0) {
        extra = 0;
    } else if (sel < 0xF0) {
        const uint64_t extras[8] = {1, P - 1, P, P + 1, 2, 7, 16, 64};
        extra = extras[(sel - 0xA0) % 8];
    } else if (sel < FUZZ_H_RAW) {
        extra = sel - 0xF0u;
    }
    return fuzz_header_min((uint64_t)r->max_context_len + extra, FUZZ_WIDTH_MAX);
}

static uint64_t fuzz_header_width_raw(uint64_t v, const fuzz_recipe *r) {
    return fuzz_header_raw_size_payload(v - (uint64_t)r->max_context_len, FUZZ_H_COMMON_EXTRA,
                                        FUZZ_WIDTH_MAX);
}

/* Mostly small batches (91%); every power of two +-1 from 128 to 8192,
 * 16384 and 65536 are one pick each of the rest, and the raw payload any
 * size up to 65536. Then as many rows as the page-table budget leaves.
 * The two biggest (the costliest) sit away from 0xF8..0xFF, the bytes
 * that the dictionary's raw words and libFuzzer's integer mutations put
 * into headers most. */
static uint64_t fuzz_header_bs(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    static const uint8_t small[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 12, 15, 16, 17, 20,
                                      24, 31, 32, 33, 40, 48, 63, 64, 65, 1,  2,  3,  4,  1,  2,  8};
    static const uint32_t edges[23] = {127,  128,  129,   255,  256,  257,  511,  512,
                                       513,  1023, 1024, 16384, 1025, 2047, 2048, 65536,
                                       2049, 4095, 4096, 4097,  8191, 8192, 8193};
    uint64_t bs = sel < 0xE8        ? small[sel % 32]
                  : sel < FUZZ_H_RAW ? edges[sel - 0xE8]
                                     : fuzz_header_raw_size(raw, FUZZ_H_COMMON_BS, FUZZ_BS_MAX);
    uint64_t pages = fuzz_recipe_max_num_pages(r);
    return bs * pages > FUZZ_CELLS_MAX ? FUZZ_CELLS_MAX / pages : bs;
}

/* A row per request (plus up to 3 spares), or a small pool that batch
 * rows share. */
static uint64_t fuzz_header_pool(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t bs = r->bs, pool;
    if (sel < 0x60) {
        pool = bs + (sel & 3);
    } else if (sel < 0xF0) {
        pool = 1 + (sel - 0x60u) % 16;
    } else if (sel < FUZZ_H_RAW) {
        const uint64_t other[15] = {1, 2, bs / 2, 2 * bs + 1, bs + 8, 133, 4097, 3,
                                    64, 65, 1024, 2 * bs, bs + 1, 17, 100};
        pool = other[sel - 0xF0];
    } else {
        pool = 1 + fuzz_header_raw_size(raw, FUZZ_H_COMMON_POOL - 1, FUZZ_POOL_MAX - 1);
    }
    pool = pool < 1 ? 1 : fuzz_header_min(pool, FUZZ_POOL_MAX);
    return pool * r->width > FUZZ_TOKENS_MAX ? fuzz_header_min(pool, FUZZ_TOKENS_MAX / r->width) : pool;
}

static uint64_t fuzz_header_bs_raw(uint64_t v, const fuzz_recipe *r) {
    (void)r;
    return fuzz_header_raw_size_payload(v, FUZZ_H_COMMON_BS, FUZZ_BS_MAX);
}

static uint64_t fuzz_header_pool_raw(uint64_t v, const fuzz_recipe *r) {
    (void)r;
    return fuzz_header_raw_size_payload(v - 1, FUZZ_H_COMMON_POOL - 1, FUZZ_POOL_MAX - 1);
}

/* Trailing cuda-graph padding rows. */
static uint64_t fuzz_header_pad(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t bs = r->bs, pad = raw;
    if (sel < 0xA0) {
        pad = 0;
    } else if (sel < 0xF0) {
        const uint64_t picks[6] = {1, 2, 3, bs / 2, bs > 0 ? bs - 1 : 0, bs};
        pad = picks[(sel - 0xA0) % 6];
    } else if (sel < FUZZ_H_RAW) {
        pad = sel - 0xF0u;
    }
    return fuzz_header_min(pad, bs);
}

/* By convention full_size + page_size + 1 (the last element the -1). */
static uint64_t fuzz_header_mapping_len(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t full = r->pool * r->width, P = (uint64_t)r->page_size, len;
    if (sel < 0xC0) {
        len = full + P + 1;
    } else if (sel < FUZZ_H_RAW) {
        const uint64_t other[11] = {full, full + 1, 1, 2, P + 1, full + P, full + P + 2,
                                    full / 2, 3, 17, full - 1};
        len = other[(sel - 0xC0) % 11];
    } else {
        len = 1 + raw % FUZZ_MAPPING_MAX;
    }
    return len < 1 ? 1 : fuzz_header_min(len, FUZZ_MAPPING_MAX);
}

/* The SWA-out programs' 512-slot tiles, just below, at and just above
 * their edges: a count for out_len and len(out_cache_loc) (0xF0..0xFE). */
static const uint16_t fuzz_header_tiles[15] = {511,  512,  513,  1023, 1024, 1025, 1535, 1536,
                                               1537, 2047, 2048, 2049, 4097, 8193, 16384};

/* A count of SWA slots: < 0xC0 picks[(sel - 0x40) % 8]; then 0..47; then
 * a tile edge; raw 4. At most FUZZ_OUT_MAX. */
static uint64_t fuzz_header_slots(uint8_t sel, uint64_t raw, const uint64_t picks[8]) {
    uint64_t n = raw % (FUZZ_OUT_MAX + 1);
    if (sel < 0xC0) {
        n = picks[(sel - 0x40) % 8];
    } else if (sel < 0xF0) {
        n = sel - 0xC0u;
    } else if (sel < FUZZ_H_RAW) {
        n = fuzz_header_tiles[sel - 0xF0];
    }
    return fuzz_header_min(n, FUZZ_OUT_MAX);
}

/* Absent for sel < 0x40; else about the batch size (one token per row
 * and more). */
static uint64_t fuzz_header_out_len(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t bs = r->bs;
    const uint64_t picks[8] = {bs, bs, bs + 1, 2 * bs, 4 * bs, bs > 0 ? bs - 1 : 0, 1, 0};
    return sel < 0x40 ? FUZZ_ABSENT : fuzz_header_slots(sel, raw, picks);
}

/* Absent for sel < 0x40; else below, equal to or above out_len. */
static uint64_t fuzz_header_n_out(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t base = r->has_out_len ? r->out_len : r->bs;
    const uint64_t picks[8] = {base, base, base > 0 ? base - 1 : 0, base + 1, 0, 1,
                               base / 2, 2 * base};
    return sel < 0x40 ? FUZZ_ABSENT : fuzz_header_slots(sel, raw, picks);
}

/* Absent for sel < 0xC0; else the page-table width and its neighbours. */
static uint64_t fuzz_header_max_seq_pages(uint8_t sel, uint64_t raw, const fuzz_recipe *r) {
    uint64_t pages = fuzz_recipe_max_num_pages(r);
    if (sel < 0xC0) {
        return FUZZ_ABSENT;
    }
    if (sel < FUZZ_H_RAW) {
        const uint64_t picks[8] = {pages,         pages - 1, pages + 1, 0, 1, 2 * pages, pages + 2,
                                   FUZZ_MAX_SEQ_PAGES_MAX};
        return picks[(sel - 0xC0) % 8];
    }
    return raw % (FUZZ_MAX_SEQ_PAGES_MAX + 1);
}

static const fuzz_header_size fuzz_header_page_size_field = {
    FUZZ_H_PAGE_SIZE, fuzz_header_page_size, fuzz_header_raw_minus_one};
static const fuzz_header_size fuzz_header_mcl_field = {
    FUZZ_H_MAX_CONTEXT_LEN, fuzz_header_mcl, fuzz_header_mcl_raw};
static const fuzz_header_size fuzz_header_width_field = {
    FUZZ_H_WIDTH, fuzz_header_width, fuzz_header_width_raw};
static const fuzz_header_size fuzz_header_bs_field = {
    FUZZ_H_BS, fuzz_header_bs, fuzz_header_bs_raw};
static const fuzz_header_size fuzz_header_pool_field = {
    FUZZ_H_POOL, fuzz_header_pool, fuzz_header_pool_raw};
static const fuzz_header_size fuzz_header_pad_field = {
    FUZZ_H_PAD_ROWS, fuzz_header_pad, fuzz_header_raw_same};
static const fuzz_header_size fuzz_header_mapping_len_field = {
    FUZZ_H_MAPPING_LEN, fuzz_header_mapping_len, fuzz_header_raw_minus_one};
static const fuzz_header_size fuzz_header_out_len_field = {
    FUZZ_H_OUT_LEN, fuzz_header_out_len, fuzz_header_raw_same};
static const fuzz_header_size fuzz_header_n_out_field = {
    FUZZ_H_N_OUT, fuzz_header_n_out, fuzz_header_raw_same};
static const fuzz_header_size fuzz_header_msp_field = {
    FUZZ_H_MAX_SEQ_PAGES, fuzz_header_max_seq_pages, fuzz_header_raw_same};


static uint64_t fuzz_header_get_size(const fuzz_header_bytes *hb, const fuzz_header_size *f,
                                     const fuzz_recipe *r) {
    return f->decode(hb->sel[f->offset], hb->raw[f->offset], r);
}

/* The first selector that decodes to v, else the raw selector. */
static void fuzz_header_put_size(fuzz_header_bytes *hb, const fuzz_header_size *f,
                                 const fuzz_recipe *r, uint64_t v) {
    for (unsigned s = 0; s < FUZZ_H_RAW; s++) {
        if (f->decode((uint8_t)s, 0, r) == v) {
            hb->sel[f->offset] = (uint8_t)s;
            return;
        }
    }
    hb->sel[f->offset] = FUZZ_H_RAW;
    hb->raw[f->offset] = f->raw_of(v, r);
}

/* ---- raw payload widths ------------------------------------------------ */

/* What each offset holds, for its payload: a value (fuzz_value.h widths),
 * a size with an n-byte raw payload behind selector 0xFF, or no payload. */
enum { FUZZ_H_PLAIN = 0, FUZZ_H_VALUE = 1, FUZZ_H_SIZE2 = 2, FUZZ_H_SIZE4 = 4 };

static const uint8_t fuzz_header_kinds[FUZZ_HEADER_LEN] = {
    [FUZZ_H_PAGE_SIZE] = FUZZ_H_SIZE4,     [FUZZ_H_BS] = FUZZ_H_SIZE4,
    [FUZZ_H_MAX_CONTEXT_LEN] = FUZZ_H_SIZE4, [FUZZ_H_WIDTH] = FUZZ_H_SIZE4,
    [FUZZ_H_POOL] = FUZZ_H_SIZE4,          [FUZZ_H_PAD_ROWS] = FUZZ_H_SIZE2,
    [FUZZ_H_MAPPING_LEN] = FUZZ_H_SIZE4,   [FUZZ_H_OUT_LEN] = FUZZ_H_SIZE4,
    [FUZZ_H_N_OUT] = FUZZ_H_SIZE4,         [FUZZ_H_MAX_SEQ_PAGES] = FUZZ_H_SIZE4,
    [FUZZ_H_STEP_ID] = FUZZ_H_VALUE,       [FUZZ_H_DRAFT_TOKENS] = FUZZ_H_VALUE,
    [FUZZ_H_Q_STRIDE] = FUZZ_H_VALUE,
    [FUZZ_H_RPI + 1] = FUZZ_H_VALUE,       [FUZZ_H_RPI + 2] = FUZZ_H_VALUE,
    [FUZZ_H_SEQ + 1] = FUZZ_H_VALUE,       [FUZZ_H_SEQ + 2] = FUZZ_H_VALUE,
    [FUZZ_H_CPU + 1] = FUZZ_H_VALUE,       [FUZZ_H_CPU + 2] = FUZZ_H_VALUE,
    [FUZZ_H_QLENS + 1] = FUZZ_H_VALUE,     [FUZZ_H_QLENS + 2] = FUZZ_H_VALUE,
    [FUZZ_H_TOKENS + 1] = FUZZ_H_VALUE,    [FUZZ_H_TOKENS + 2] = FUZZ_H_VALUE,
    [FUZZ_H_TOKENS + 3] = FUZZ_H_VALUE,
    [FUZZ_H_MAPPING + 1] = FUZZ_H_VALUE,   [FUZZ_H_MAPPING + 2] = FUZZ_H_VALUE,
    [FUZZ_H_LOC + 1] = FUZZ_H_VALUE,       [FUZZ_H_LOC + 2] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 1] = FUZZ_H_VALUE,      [FUZZ_H_INIT + 2] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 4] = FUZZ_H_VALUE,      [FUZZ_H_INIT + 5] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 7] = FUZZ_H_VALUE,      [FUZZ_H_INIT + 8] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 10] = FUZZ_H_VALUE,     [FUZZ_H_INIT + 11] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 13] = FUZZ_H_VALUE,     [FUZZ_H_INIT + 14] = FUZZ_H_VALUE,
    [FUZZ_H_INIT + 16] = FUZZ_H_VALUE,     [FUZZ_H_INIT + 17] = FUZZ_H_VALUE,
};

static unsigned fuzz_header_raw_width(unsigned off, uint8_t sel) {
    switch (fuzz_header_kinds[off]) {
    case FUZZ_H_VALUE: return fuzz_value_raw_width(sel);
    case FUZZ_H_SIZE2:
    case FUZZ_H_SIZE4: return sel == FUZZ_H_RAW ? fuzz_header_kinds[off] : 0;
    default: return 0;
    }
}

/* ---- values and generators -------------------------------------------- */

static int64_t fuzz_header_value(const fuzz_header_bytes *hb, unsigned off, fuzz_domain d,
                                 const fuzz_value_ctx *ctx) {
    return fuzz_value_decode(d, ctx, hb->sel[off], hb->raw[off]);
}

static void fuzz_header_put_value(fuzz_header_bytes *hb, unsigned off, fuzz_domain d,
                                  const fuzz_value_ctx *ctx, int64_t v) {
    fuzz_value_code code = fuzz_value_encode(d, ctx, v);
    hb->sel[off] = code.sel;
    hb->raw[off] = code.raw;
}

/* A generator at `off`: kind byte (kind = bits 0-1, seed = bits 2-7),
 * a, and b. A random generator draws b from a's domain (its upper bound);
 * the others from `db` (a stride). */
static fuzz_gen fuzz_header_gen(const fuzz_header_bytes *hb, unsigned off, fuzz_domain da,
                                fuzz_domain db, const fuzz_value_ctx *ctx) {
    fuzz_gen g = {(fuzz_gen_kind)(hb->sel[off] & 3), (uint8_t)(hb->sel[off] >> 2), 0, 0};
    g.a = fuzz_header_value(hb, off + 1, da, ctx);
    g.b = fuzz_header_value(hb, off + 2, g.kind == FUZZ_GEN_RANDOM ? da : db, ctx);
    return g;
}

static void fuzz_header_put_gen(fuzz_header_bytes *hb, unsigned off, const fuzz_gen *g,
                                fuzz_domain da, fuzz_domain db, const fuzz_value_ctx *ctx) {
    hb->sel[off] = (uint8_t)(g->kind | (g->seed & 63) << 2);
    fuzz_header_put_value(hb, off + 1, da, ctx, g->a);
    fuzz_header_put_value(hb, off + 2, g->kind == FUZZ_GEN_RANDOM ? da : db, ctx, g->b);
}

static fuzz_tok_gen fuzz_header_tok(const fuzz_header_bytes *hb, const fuzz_value_ctx *ctx) {
    unsigned off = FUZZ_H_TOKENS;
    fuzz_tok_gen t = {(fuzz_tok_kind)(hb->sel[off] & 3), (uint8_t)(hb->sel[off] >> 2), 0, 0, 0};
    t.a = fuzz_header_value(hb, off + 1, FUZZ_DOM_TOKEN, ctx);
    t.b = fuzz_header_value(hb, off + 2,
                            t.kind == FUZZ_TOK_RANDOM ? FUZZ_DOM_TOKEN : FUZZ_DOM_ROWSTEP, ctx);
    t.c = fuzz_header_value(hb, off + 3, FUZZ_DOM_STEP, ctx);
    return t;
}

static void fuzz_header_put_tok(fuzz_header_bytes *hb, const fuzz_tok_gen *t,
                                const fuzz_value_ctx *ctx) {
    unsigned off = FUZZ_H_TOKENS;
    hb->sel[off] = (uint8_t)(t->kind | (t->seed & 63) << 2);
    fuzz_header_put_value(hb, off + 1, FUZZ_DOM_TOKEN, ctx, t->a);
    fuzz_header_put_value(hb, off + 2,
                          t->kind == FUZZ_TOK_RANDOM ? FUZZ_DOM_TOKEN : FUZZ_DOM_ROWSTEP, ctx, t->b);
    fuzz_header_put_value(hb, off + 3, FUZZ_DOM_STEP, ctx, t->c);
}

/* seq_lens_cpu: kind byte % 8: 0-3 absent, 4-5 equal, 6 lag, 7 own. */
static const fuzz_cpu_kind fuzz_header_cpu_kinds[8] = {
    FUZZ_CPU_ABSENT, FUZZ_CPU_ABSENT, FUZZ_CPU_ABSENT, FUZZ_CPU_ABSENT,
    FUZZ_CPU_EQUAL,  FUZZ_CPU_EQUAL,  FUZZ_CPU_LAG,    FUZZ_CPU_OWN,
};
static const uint8_t fuzz_header_cpu_sel[4] = {0, 4, 6, 7};

/* init kind byte: < 0xA0 default, < 0xE0 fill (= a), else an array whose
 * generator kind and seed are the byte's bits 0-1 and 2-4. */
static void fuzz_header_init(const fuzz_header_bytes *hb, fuzz_recipe *r, gm_buf_id id,
                             const fuzz_value_ctx *ctx) {
    unsigned off = FUZZ_H_INIT + 3 * (unsigned)id;
    uint8_t s = hb->sel[off];
    r->init_kind[id] = s < 0xA0 ? GM_INIT_DEFAULT : s < 0xE0 ? GM_INIT_FILL : GM_INIT_ARRAY;
    r->init[id] = fuzz_header_gen(hb, off, FUZZ_DOM_FILL, FUZZ_DOM_STEP, ctx);
    r->init[id].kind = (fuzz_gen_kind)(s & 3);
    r->init[id].seed = (uint8_t)((s >> 2) & 7);
}

static void fuzz_header_put_init(fuzz_header_bytes *hb, const fuzz_recipe *r, gm_buf_id id,
                                 const fuzz_value_ctx *ctx) {
    unsigned off = FUZZ_H_INIT + 3 * (unsigned)id;
    fuzz_gen g = r->init[id];
    uint8_t kind_byte = 0;
    if (r->init_kind[id] == GM_INIT_ARRAY) {
        kind_byte = (uint8_t)(0xE0 | g.kind | (g.seed & 7) << 2);
    } else {
        /* a fill (or nothing): the kind bits read as a constant */
        kind_byte = r->init_kind[id] == GM_INIT_FILL ? 0xA0 : 0;
        g.kind = FUZZ_GEN_CONST;
    }
    fuzz_header_put_gen(hb, off, &g, FUZZ_DOM_FILL, FUZZ_DOM_STEP, ctx);
    hb->sel[off] = kind_byte;
}

/* ---- the recipe, field by field, in dependency order ------------------- */

static void fuzz_header_decode_shape(const fuzz_header_bytes *hb, fuzz_recipe *r) {
    r->mode = (gm_mode)(hb->sel[FUZZ_H_MODE] % GM_MODE_COUNT);
    r->page_size = (int32_t)fuzz_header_get_size(hb, &fuzz_header_page_size_field, r);
    r->max_context_len = (int32_t)fuzz_header_get_size(hb, &fuzz_header_mcl_field, r);
    r->width = fuzz_header_get_size(hb, &fuzz_header_width_field, r);
    r->bs = fuzz_header_get_size(hb, &fuzz_header_bs_field, r);
    r->pool = fuzz_header_get_size(hb, &fuzz_header_pool_field, r);
    r->confined = hb->sel[FUZZ_H_BOUNDS] < 0xC0;
    r->pad_rows = fuzz_header_get_size(hb, &fuzz_header_pad_field, r);
    uint64_t msp = fuzz_header_get_size(hb, &fuzz_header_msp_field, r);
    r->has_max_seq_pages = msp != FUZZ_ABSENT;
    r->max_seq_pages = r->has_max_seq_pages ? (int32_t)msp : 0;
    if (r->confined && (size_t)r->max_seq_pages > fuzz_recipe_max_num_pages(r)) {
        r->max_seq_pages = (int32_t)fuzz_recipe_max_num_pages(r); /* no write past a row */
    }
}

static void fuzz_header_decode_swa_shape(const fuzz_header_bytes *hb, fuzz_recipe *r) {
    r->has_swa = hb->sel[FUZZ_H_SWA] >= 0x60;
    if (!r->has_swa) {
        return;
    }
    r->swa_page_table = hb->sel[FUZZ_H_SWA_PAGE_TABLE] < 0xC0;
    r->keep_last = hb->sel[FUZZ_H_MAPPING_LAST] >= 0xC0;
    r->mapping_len = fuzz_header_get_size(hb, &fuzz_header_mapping_len_field, r);
    uint64_t out_len = fuzz_header_get_size(hb, &fuzz_header_out_len_field, r);
    r->has_out_len = out_len != FUZZ_ABSENT;
    r->out_len = r->has_out_len ? out_len : 0;
    uint64_t n_out = fuzz_header_get_size(hb, &fuzz_header_n_out_field, r);
    r->has_out_loc = n_out != FUZZ_ABSENT;
    r->n_out = r->has_out_loc ? n_out : 0;
}

static void fuzz_header_decode_arrays(const fuzz_header_bytes *hb, fuzz_recipe *r,
                                      const fuzz_value_ctx *ctx) {
    r->step_id = fuzz_int_low32((uint64_t)fuzz_header_value(hb, FUZZ_H_STEP_ID, FUZZ_DOM_COUNT, ctx));
    r->draft_tokens =
        fuzz_int_low32((uint64_t)fuzz_header_value(hb, FUZZ_H_DRAFT_TOKENS, FUZZ_DOM_COUNT, ctx));
    r->q_stride = fuzz_int_low32((uint64_t)fuzz_header_value(hb, FUZZ_H_Q_STRIDE, FUZZ_DOM_COUNT, ctx));
    r->rpi = fuzz_header_gen(hb, FUZZ_H_RPI, FUZZ_DOM_ROW, FUZZ_DOM_STEP, ctx);
    r->seq = fuzz_header_gen(hb, FUZZ_H_SEQ, FUZZ_DOM_SEQ, FUZZ_DOM_STEP, ctx);
    r->cpu_kind = fuzz_header_cpu_kinds[hb->sel[FUZZ_H_CPU_KIND] % 8];
    /* a lag is a small step; an own generator draws lengths */
    fuzz_domain cpu_a = r->cpu_kind == FUZZ_CPU_LAG ? FUZZ_DOM_STEP : FUZZ_DOM_SEQ;
    r->cpu = fuzz_header_gen(hb, FUZZ_H_CPU, cpu_a, FUZZ_DOM_STEP, ctx);
    r->has_qlens = r->mode == GM_MODE_DRAFT_EXTEND || hb->sel[FUZZ_H_QLENS_PRESENT] >= 0xC0;
    r->qlens = fuzz_header_gen(hb, FUZZ_H_QLENS, FUZZ_DOM_COUNT, FUZZ_DOM_STEP, ctx);
    r->tok = fuzz_header_tok(hb, ctx);
    r->mapping = fuzz_header_gen(hb, FUZZ_H_MAPPING, FUZZ_DOM_MAP, FUZZ_DOM_STEP, ctx);
    r->loc = fuzz_header_gen(hb, FUZZ_H_LOC, FUZZ_DOM_LOC, FUZZ_DOM_STEP, ctx);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        fuzz_header_init(hb, r, (gm_buf_id)id, ctx);
    }
}

void fuzz_header_read(fuzz_input *in, fuzz_recipe *r) {
    fuzz_header_bytes hb;
    for (unsigned off = 0; off < FUZZ_HEADER_LEN; off++) {
        hb.sel[off] = fuzz_input_byte(in);
    }
    for (unsigned off = 0; off < FUZZ_HEADER_LEN; off++) {
        hb.raw[off] = fuzz_input_raw(in, fuzz_header_raw_width(off, hb.sel[off]));
    }
    memset(r, 0, sizeof *r);
    fuzz_header_decode_shape(&hb, r);
    fuzz_header_decode_swa_shape(&hb, r);
    fuzz_value_ctx ctx;
    fuzz_recipe_ctx(r, &ctx);
    fuzz_header_decode_arrays(&hb, r, &ctx);
}

/* ---- writing: the same fields, same order ------------------------------ */

static void fuzz_header_encode_shape(fuzz_header_bytes *hb, const fuzz_recipe *r) {
    hb->sel[FUZZ_H_MODE] = (uint8_t)r->mode;
    fuzz_header_put_size(hb, &fuzz_header_page_size_field, r, (uint64_t)r->page_size);
    fuzz_header_put_size(hb, &fuzz_header_mcl_field, r, (uint64_t)r->max_context_len);
    fuzz_header_put_size(hb, &fuzz_header_width_field, r, r->width);
    fuzz_header_put_size(hb, &fuzz_header_bs_field, r, r->bs);
    fuzz_header_put_size(hb, &fuzz_header_pool_field, r, r->pool);
    hb->sel[FUZZ_H_BOUNDS] = r->confined ? 0 : 0xC0;
    fuzz_header_put_size(hb, &fuzz_header_pad_field, r, r->pad_rows);
    fuzz_header_put_size(hb, &fuzz_header_msp_field, r,
                         r->has_max_seq_pages ? (uint64_t)r->max_seq_pages : FUZZ_ABSENT);
}

static void fuzz_header_encode_swa_shape(fuzz_header_bytes *hb, const fuzz_recipe *r) {
    hb->sel[FUZZ_H_SWA] = r->has_swa ? 0x60 : 0;
    if (!r->has_swa) {
        return;
    }
    hb->sel[FUZZ_H_SWA_PAGE_TABLE] = r->swa_page_table ? 0 : 0xC0;
    hb->sel[FUZZ_H_MAPPING_LAST] = r->keep_last ? 0xC0 : 0;
    fuzz_header_put_size(hb, &fuzz_header_mapping_len_field, r, r->mapping_len);
    fuzz_header_put_size(hb, &fuzz_header_out_len_field, r,
                         r->has_out_len ? r->out_len : FUZZ_ABSENT);
    fuzz_header_put_size(hb, &fuzz_header_n_out_field, r, r->has_out_loc ? r->n_out : FUZZ_ABSENT);
}

static void fuzz_header_encode_arrays(fuzz_header_bytes *hb, const fuzz_recipe *r,
                                      const fuzz_value_ctx *ctx) {
    fuzz_header_put_value(hb, FUZZ_H_STEP_ID, FUZZ_DOM_COUNT, ctx, r->step_id);
    fuzz_header_put_value(hb, FUZZ_H_DRAFT_TOKENS, FUZZ_DOM_COUNT, ctx, r->draft_tokens);
    fuzz_header_put_value(hb, FUZZ_H_Q_STRIDE, FUZZ_DOM_COUNT, ctx, r->q_stride);
    fuzz_header_put_gen(hb, FUZZ_H_RPI, &r->rpi, FUZZ_DOM_ROW, FUZZ_DOM_STEP, ctx);
    fuzz_header_put_gen(hb, FUZZ_H_SEQ, &r->seq, FUZZ_DOM_SEQ, FUZZ_DOM_STEP, ctx);
    hb->sel[FUZZ_H_CPU_KIND] = fuzz_header_cpu_sel[r->cpu_kind];
    fuzz_domain cpu_a = r->cpu_kind == FUZZ_CPU_LAG ? FUZZ_DOM_STEP : FUZZ_DOM_SEQ;
    fuzz_header_put_gen(hb, FUZZ_H_CPU, &r->cpu, cpu_a, FUZZ_DOM_STEP, ctx);
    hb->sel[FUZZ_H_QLENS_PRESENT] = r->has_qlens ? 0xC0 : 0;
    fuzz_header_put_gen(hb, FUZZ_H_QLENS, &r->qlens, FUZZ_DOM_COUNT, FUZZ_DOM_STEP, ctx);
    fuzz_header_put_tok(hb, &r->tok, ctx);
    fuzz_header_put_gen(hb, FUZZ_H_MAPPING, &r->mapping, FUZZ_DOM_MAP, FUZZ_DOM_STEP, ctx);
    fuzz_header_put_gen(hb, FUZZ_H_LOC, &r->loc, FUZZ_DOM_LOC, FUZZ_DOM_STEP, ctx);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        fuzz_header_put_init(hb, r, (gm_buf_id)id, ctx);
    }
}

void fuzz_header_write(fuzz_output *out, const fuzz_recipe *r) {
    fuzz_header_bytes hb;
    memset(&hb, 0, sizeof hb);
    fuzz_header_encode_shape(&hb, r);
    fuzz_header_encode_swa_shape(&hb, r);
    fuzz_value_ctx ctx;
    fuzz_recipe_ctx(r, &ctx);
    fuzz_header_encode_arrays(&hb, r, &ctx);
    for (unsigned off = 0; off < FUZZ_HEADER_LEN; off++) {
        fuzz_output_byte(out, hb.sel[off]);
    }
    for (unsigned off = 0; off < FUZZ_HEADER_LEN; off++) {
        fuzz_output_raw(out, hb.raw[off], fuzz_header_raw_width(off, hb.sel[off]));
    }
}
