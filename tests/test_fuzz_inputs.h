/* test_fuzz_inputs: what the fuzz codec tests share (test_fuzz_decode.c,
 * test_fuzz_reach.c, test_space.c): random byte strings shaped like a
 * fuzzer's, the integers a case holds, and the values of a dictionary. */
#ifndef TEST_FUZZ_INPUTS_H
#define TEST_FUZZ_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_rng.h"
#include "gm_case.h"

/* Random bytes: lengths mostly short, some long (what fuzzers feed). */
static inline size_t test_fuzz_inputs_random(fuzz_rng *rng, uint8_t *buf, size_t cap) {
    size_t len = fuzz_rng_below(rng, 10) < 6 ? fuzz_rng_below(rng, 200)
                 : fuzz_rng_below(rng, 10) < 8 ? 200 + fuzz_rng_below(rng, 800)
                                               : 1000 + fuzz_rng_below(rng, 4000);
    len = len < cap ? len : cap;
    for (size_t k = 0; k < len; k++) {
        buf[k] = (uint8_t)fuzz_rng_next(rng);
    }
    return len;
}

static inline size_t test_fuzz_inputs_elements(const gm_case *c) {
    size_t n = c->pool * c->width + 4 * c->bs + 2 * c->bs * gm_case_max_num_pages(c);
    if (c->has_swa) {
        n += c->swa.mapping_len + c->swa.n_out + c->swa.out_len;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        n += c->init[id].len;
    }
    return n;
}

/* Unescapes the value of one `name="..."` line of a libFuzzer dictionary;
 * returns its length. */
static inline size_t test_fuzz_inputs_dict_value(const char *line, uint8_t *out, size_t cap) {
    const char *q = strchr(line, '"');
    size_t n = 0;
    for (q = q != NULL ? q + 1 : ""; *q != '\0' && *q != '"' && n < cap; q++) {
        if (q[0] == '\\' && q[1] == 'x') {
            out[n++] = (uint8_t)strtoul((char[3]){q[2], q[3], 0}, NULL, 16);
            q += 3;
        } else {
            out[n++] = (uint8_t)*q;
        }
    }
    return n;
}

#endif
