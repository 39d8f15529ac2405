#include "fuzz_value.h"

#include <string.h>

#include "fuzz_int.h"

#define FUZZ_2P31 ((int64_t)1 << 31)
#define FUZZ_2P32 ((int64_t)1 << 32)

/* Sizes in the context are bounded (fuzz_recipe.h), so the sums and
 * products below stay far from int64 overflow. */

/* Each domain's specials: a table built from the context, copied to out
 * (FUZZ_VALUE_SPECIALS_MAX entries at most); returns its size. */
#define FUZZ_VALUE_TABLE(table, out)                                                      \
    (memcpy((out), (table), sizeof(table)), (unsigned)(sizeof(table) / sizeof((table)[0])))

static unsigned fuzz_value_special_seq(const fuzz_value_ctx *x, int64_t *out) {
    int64_t P = x->page_size, M = x->max_context_len, pages = x->max_num_pages;
    const int64_t v[] = {
        0, 1, 2, -1, -2, INT32_MAX, INT32_MAX - 1, FUZZ_2P31, FUZZ_2P31 + 5, INT32_MIN,
        (int64_t)INT32_MIN - 1, FUZZ_2P32 - 1, FUZZ_2P32, FUZZ_2P32 + 3, INT64_MAX, INT64_MIN,
        P - 1, P, P + 1, 2 * P - 1, 2 * P, 2 * P + 1, M - 1, M, M + 1, M + P, M + P - 1,
        x->width, x->width + 1, pages * P, pages * P + 1, -P, M + 2 * P, M / 2,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_token(const fuzz_value_ctx *x, int64_t *out) {
    int64_t P = x->page_size, L = x->mapping_len, F = x->full_size;
    const int64_t v[] = {
        -1, -2, -3, -P, -P - 1, -P + 1, 0, 1, P - 1, P, P + 1, F - 1, F, L - 1, L, L + 1,
        -L, -L - 1, -L + 1, INT32_MAX, INT32_MIN, INT32_MIN + 1, 1 << 30, x->width,
        x->width - 1, -2 * P, -(1 << 30), -128, -129, INT32_MAX - P + 1,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_row(const fuzz_value_ctx *x, int64_t *out) {
    int64_t p = x->pool;
    const int64_t v[] = {
        0, 1, p - 1, p, p + 1, -1, -2, -p, -p - 1, -p + 1, 2 * p, INT32_MAX, INT32_MIN,
        FUZZ_2P32, FUZZ_2P32 + 1, INT64_MAX, INT64_MIN, x->bs - 1, x->bs,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_map(const fuzz_value_ctx *x, int64_t *out) {
    int64_t P = x->page_size;
    const int64_t v[] = {
        -1, -2, -3, 0, 1, INT32_MAX, FUZZ_2P31, FUZZ_2P31 + 1, INT32_MIN,
        (int64_t)INT32_MIN - 1, FUZZ_2P32, FUZZ_2P32 + 1, FUZZ_2P32 - 1,
        ((int64_t)1 << 40) + 3, -((int64_t)1 << 40), INT64_MAX, INT64_MIN, P, P - 1,
        FUZZ_2P31 - P, FUZZ_2P32 + P, x->full_size, x->mapping_len, fuzz_int_add(INT64_MAX - P, 1),
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_loc(const fuzz_value_ctx *x, int64_t *out) {
    int64_t L = x->mapping_len;
    const int64_t v[] = {
        -1, -2, -3, -L, -L - 1, -L + 1, L - 1, L, L + 1, 0, 1, INT64_MIN, INT64_MAX,
        INT32_MIN, INT32_MAX, FUZZ_2P32, x->full_size - 1, x->full_size, 2 * L,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_count_dom(const fuzz_value_ctx *x, int64_t *out) {
    int64_t bs = x->bs > 0 ? x->bs : 1;
    const int64_t v[] = {
        0, 1, 2, 3, 4, 7, 8, -1, -2, -3, INT32_MAX, INT32_MIN, INT32_MAX - 1, 1 << 30,
        1 << 16, x->bs, x->page_size, INT32_MAX / bs + 1, -(1 << 30), 5, 64,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_step(const fuzz_value_ctx *x, int64_t *out) {
    int64_t P = x->page_size;
    const int64_t v[] = {
        0, 1, -1, 2, 3, P, -P, P + 1, P - 1, x->width, INT32_MAX, INT32_MIN, FUZZ_2P31,
        FUZZ_2P32, INT64_MAX, INT64_MIN,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_rowstep(const fuzz_value_ctx *x, int64_t *out) {
    int64_t W = x->width;
    const int64_t v[] = {
        W, 0, 1, x->page_size, W + 1, W - 1, -W, 2 * W, INT32_MAX,
        x->page_size * x->max_num_pages, -1,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

static unsigned fuzz_value_special_fill(const fuzz_value_ctx *x, int64_t *out) {
    const int64_t v[] = {
        0, -1, 1, -7, 1234, INT32_MAX, INT32_MIN, 0x5a5a5a5a, -2, x->page_size,
        (int64_t)1 << 40, INT64_MIN, INT64_MAX, -1234, 0x7fff, x->max_num_pages,
    };
    return FUZZ_VALUE_TABLE(v, out);
}

typedef unsigned (*fuzz_value_table_fn)(const fuzz_value_ctx *x, int64_t *out);

static const fuzz_value_table_fn fuzz_value_tables[FUZZ_DOM_N] = {
    [FUZZ_DOM_SEQ] = fuzz_value_special_seq,         [FUZZ_DOM_TOKEN] = fuzz_value_special_token,
    [FUZZ_DOM_ROW] = fuzz_value_special_row,         [FUZZ_DOM_MAP] = fuzz_value_special_map,
    [FUZZ_DOM_LOC] = fuzz_value_special_loc,         [FUZZ_DOM_COUNT] = fuzz_value_special_count_dom,
    [FUZZ_DOM_STEP] = fuzz_value_special_step,       [FUZZ_DOM_ROWSTEP] = fuzz_value_special_rowstep,
    [FUZZ_DOM_FILL] = fuzz_value_special_fill,
};

unsigned fuzz_value_specials(fuzz_domain d, const fuzz_value_ctx *ctx,
                             int64_t out[FUZZ_VALUE_SPECIALS_MAX]) {
    return fuzz_value_tables[d](ctx, out);
}

unsigned fuzz_value_special_count(fuzz_domain d) {
    static const fuzz_value_ctx zero = {0};
    int64_t table[FUZZ_VALUE_SPECIALS_MAX];
    return fuzz_value_specials(d, &zero, table);
}

int64_t fuzz_value_special(fuzz_domain d, const fuzz_value_ctx *ctx, unsigned k) {
    int64_t table[FUZZ_VALUE_SPECIALS_MAX];
    unsigned n = fuzz_value_specials(d, ctx, table);
    return table[k % n];
}

/* The small value of selector s (< FUZZ_VALUE_SMALL_END): mostly in range
 * for the domain, so that most decoded cases stay meaningful. */
static int64_t fuzz_value_small(fuzz_domain d, const fuzz_value_ctx *x, uint8_t s) {
    static const int8_t steps[8] = {1, 1, 1, 0, 2, -1, 3, 4};
    switch (d) {
    case FUZZ_DOM_SEQ: return s % (x->max_context_len + 2);
    case FUZZ_DOM_ROW: return x->pool > 0 ? s % x->pool : 0;
    case FUZZ_DOM_COUNT: return s % 9;
    case FUZZ_DOM_STEP: return steps[s % 8];
    case FUZZ_DOM_ROWSTEP: {
        const int64_t v[8] = {x->width, x->width, x->width, 0, 1, x->page_size, 2 * x->width,
                              x->width + 1};
        return v[s % 8];
    }
    case FUZZ_DOM_FILL: return (int64_t)s - 16;
    default: return s; /* tokens, mapping values, locations: 0..191 */
    }
}

unsigned fuzz_value_raw_width(uint8_t s) {
    static const unsigned widths[4] = {1, 2, 4, 8};
    return s >= FUZZ_VALUE_RAW_BEGIN ? widths[s - FUZZ_VALUE_RAW_BEGIN] : 0;
}

static int64_t fuzz_value_sign_extend(uint64_t raw, unsigned nbytes) {
    if (nbytes < 8 && (raw >> (nbytes * 8 - 1)) & 1) {
        raw |= ~(uint64_t)0 << (nbytes * 8);
    }
    return fuzz_int_i64(raw);
}

int64_t fuzz_value_decode(fuzz_domain d, const fuzz_value_ctx *ctx, uint8_t s, uint64_t raw) {
    if (s < FUZZ_VALUE_SMALL_END) {
        return fuzz_value_small(d, ctx, s);
    }
    if (s < FUZZ_VALUE_RAW_BEGIN) {
        return fuzz_value_special(d, ctx, (unsigned)(s - FUZZ_VALUE_SMALL_END));
    }
    return fuzz_value_sign_extend(raw, fuzz_value_raw_width(s));
}

/* The narrowest raw selector whose sign extension gives back v. */
static fuzz_value_code fuzz_value_encode_raw(int64_t v) {
    for (uint8_t s = FUZZ_VALUE_RAW_BEGIN; s < 0xFF; s++) {
        unsigned w = fuzz_value_raw_width(s);
        uint64_t raw = (uint64_t)v & ((~(uint64_t)0) >> (64 - 8 * w));
        if (fuzz_value_sign_extend(raw, w) == v) {
            return (fuzz_value_code){s, raw};
        }
    }
    return (fuzz_value_code){0xFF, (uint64_t)v};
}

fuzz_value_code fuzz_value_encode(fuzz_domain d, const fuzz_value_ctx *ctx, int64_t v) {
    if (v >= 0 && v < FUZZ_VALUE_SMALL_END && fuzz_value_small(d, ctx, (uint8_t)v) == v) {
        return (fuzz_value_code){(uint8_t)v, 0};
    }
    int64_t table[FUZZ_VALUE_SPECIALS_MAX];
    unsigned n = fuzz_value_specials(d, ctx, table);
    for (unsigned k = 0; k < n; k++) {
        if (table[k] == v) {
            return (fuzz_value_code){(uint8_t)(FUZZ_VALUE_SMALL_END + k), 0};
        }
    }
    return fuzz_value_encode_raw(v);
}

int64_t fuzz_value_read(fuzz_input *in, fuzz_domain d, const fuzz_value_ctx *ctx) {
    uint8_t s = fuzz_input_byte(in);
    uint64_t raw = fuzz_input_raw(in, fuzz_value_raw_width(s));
    return fuzz_value_decode(d, ctx, s, raw);
}

void fuzz_value_write_code(fuzz_output *out, fuzz_value_code code) {
    fuzz_output_byte(out, code.sel);
    fuzz_output_raw(out, code.raw, fuzz_value_raw_width(code.sel));
}

void fuzz_value_write(fuzz_output *out, fuzz_domain d, const fuzz_value_ctx *ctx, int64_t v) {
    fuzz_value_write_code(out, fuzz_value_encode(d, ctx, v));
}
