#include "fuzz_value.h"

#include <string.h>

#include "fuzz_int.h"

/* The specials are the input space's classes (core/gm_space.c), in its
 * order: special k of a domain is class k of its table. */
unsigned fuzz_value_specials(fuzz_domain d, const fuzz_value_ctx *ctx,
                             int64_t out[FUZZ_VALUE_SPECIALS_MAX]) {
    unsigned n = gm_space_count((gm_space_input)d);
    for (unsigned k = 0; k < n; k++) {
        out[k] = gm_space_value((gm_space_input)d, ctx, k);
    }
    return n;
}

unsigned fuzz_value_special_count(fuzz_domain d) { return gm_space_count((gm_space_input)d); }

int64_t fuzz_value_special(fuzz_domain d, const fuzz_value_ctx *ctx, unsigned k) {
    return gm_space_value((gm_space_input)d, ctx, k);
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
