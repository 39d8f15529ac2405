/* fuzz_value: how one integer value is written in the fuzzer's bytes.
 *
 * A value is one selector byte s from the front, and for the raw
 * selectors a payload from the back:
 *   s < 0xC0            the domain's "small" value for s (mostly in range:
 *                       a sequence length <= max_context_len + 1, a row of
 *                       the pool, ...)
 *   0xC0 <= s < 0xFC    the domain's special (s - 0xC0) % count: the edge
 *                       values where kernels break (page boundaries +-1,
 *                       int32 limits, -1 and deeper sentinels, lengths of
 *                       the mapping +-1, 2^40 + 3, ...)
 *   0xFC..0xFF          raw: 1, 2, 4 or 8 bytes from the back, sign-extended
 * Specials and small values depend on the case's sizes (the context), which
 * the header fixes before any value is read.
 */
#ifndef FUZZ_VALUE_H
#define FUZZ_VALUE_H

#include <stdint.h>

#include "fuzz_input.h"
#include "fuzz_output.h"
#include "gm_space.h"

/* The value domains are the input space's inputs (core/gm_space.h). */
typedef enum {
    FUZZ_DOM_SEQ = GM_SPACE_SEQ,         /* sequence lengths (seq_lens, seq_lens_cpu) */
    FUZZ_DOM_TOKEN = GM_SPACE_TOKEN,     /* req_to_token slots */
    FUZZ_DOM_ROW = GM_SPACE_ROW,         /* req_pool_indices */
    FUZZ_DOM_MAP = GM_SPACE_MAP,         /* swa mapping values (int64, beyond int32 too) */
    FUZZ_DOM_LOC = GM_SPACE_LOC,         /* out_cache_loc slots */
    FUZZ_DOM_COUNT = GM_SPACE_COUNT,     /* step id, draft tokens, q_stride, qlens */
    FUZZ_DOM_STEP = GM_SPACE_STEP,       /* strides of generated progressions */
    FUZZ_DOM_ROWSTEP = GM_SPACE_ROWSTEP, /* row stride of generated req_to_token */
    FUZZ_DOM_FILL = GM_SPACE_FILL,       /* stale contents of output buffers */
    FUZZ_DOM_N = GM_SPACE_N
} fuzz_domain;

/* The sizes that specials and small values are relative to. */
typedef gm_space_ctx fuzz_value_ctx;

#define FUZZ_VALUE_SMALL_END 0xC0
#define FUZZ_VALUE_RAW_BEGIN 0xFC

/* Payload bytes that selector s takes from the back (0, 1, 2, 4 or 8). */
unsigned fuzz_value_raw_width(uint8_t s);

/* The value selector s (with its raw payload) stands for. */
int64_t fuzz_value_decode(fuzz_domain d, const fuzz_value_ctx *ctx, uint8_t s, uint64_t raw);

/* A selector and payload that decode to v: the shortest there is. */
typedef struct {
    uint8_t sel;
    uint64_t raw;
} fuzz_value_code;
fuzz_value_code fuzz_value_encode(fuzz_domain d, const fuzz_value_ctx *ctx, int64_t v);

/* Reads / writes one value (selector, then payload). */
int64_t fuzz_value_read(fuzz_input *in, fuzz_domain d, const fuzz_value_ctx *ctx);
void fuzz_value_write(fuzz_output *out, fuzz_domain d, const fuzz_value_ctx *ctx, int64_t v);
void fuzz_value_write_code(fuzz_output *out, fuzz_value_code code);

/* A domain's specials: all of them (returns the count), their count, and
 * special k (taken modulo the count). */
#define FUZZ_VALUE_SPECIALS_MAX GM_SPACE_CLASSES_MAX
unsigned fuzz_value_specials(fuzz_domain d, const fuzz_value_ctx *ctx,
                             int64_t out[FUZZ_VALUE_SPECIALS_MAX]);
unsigned fuzz_value_special_count(fuzz_domain d);
int64_t fuzz_value_special(fuzz_domain d, const fuzz_value_ctx *ctx, unsigned k);

#endif
