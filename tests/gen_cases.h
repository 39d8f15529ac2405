/* gen_cases: a small seeded generator of random cases for tests that
 * compare backends with each other (not the fuzzer's decoder: that one is
 * coverage-guided and lives in fuzz/). Cases stay mostly in bounds, with
 * the sentinels, negative tokens and padded rows that matter. */
#ifndef GEN_CASES_H
#define GEN_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "gm_case.h"

typedef struct {
    uint64_t state;
} gen_rng;

static inline uint64_t gen_next(gen_rng *r) {
    /* splitmix64 */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline int64_t gen_range(gen_rng *r, int64_t lo, int64_t hi) {
    return lo + (int64_t)(gen_next(r) % (uint64_t)(hi - lo + 1));
}

static inline bool gen_chance(gen_rng *r, int percent) { return gen_range(r, 0, 99) < percent; }

/* Fills `c` (initialised with gm_case_init) with a random case; `max_bs`
 * bounds the batch. Returns false when memory runs out. */
static inline bool gen_case(gen_rng *r, gm_case *c, int64_t max_bs) {
    static const int32_t sizes[] = {1, 2, 3, 16, 64, 128};
    c->mode = (gm_mode)gen_range(r, 0, GM_MODE_COUNT - 1);
    c->page_size = sizes[gen_range(r, 0, 5)];
    c->max_context_len = (int32_t)gen_range(r, 1, 600);
    c->width = (size_t)c->max_context_len + (size_t)gen_range(r, 0, 3);
    c->pool = (size_t)gen_range(r, 1, 40);
    c->bs = (size_t)gen_range(r, 1, max_bs);
    int64_t mapping_len = (int64_t)(c->pool * c->width) + c->page_size + 1;
    c->req_to_token = malloc(c->pool * c->width * sizeof(int32_t));
    c->req_pool_indices = malloc(c->bs * sizeof(int64_t));
    c->seq_lens = malloc(c->bs * sizeof(int64_t));
    c->qlens = malloc(c->bs * sizeof(int32_t));
    if (!c->req_to_token || !c->req_pool_indices || !c->seq_lens || !c->qlens) {
        return false;
    }
    for (size_t k = 0; k < c->pool * c->width; k++) {
        c->req_to_token[k] = gen_chance(r, 5) ? (int32_t)gen_range(r, -3, -1)
                                               : (int32_t)gen_range(r, 0, mapping_len - 2);
    }
    size_t real = (size_t)gen_range(r, 0, (int64_t)c->bs);
    for (size_t i = 0; i < c->bs; i++) {
        bool padded = i >= real; /* cuda-graph padding: pool row 0, length 1 */
        c->req_pool_indices[i] = padded ? 0 : gen_range(r, 0, (int64_t)c->pool - 1);
        c->seq_lens[i] = padded ? 1 : gen_range(r, 0, c->max_context_len);
        c->qlens[i] = (int32_t)gen_range(r, 0, 8);
    }
    c->speculative_step_id = (int32_t)gen_range(r, 0, 3);
    c->num_draft_tokens = (int32_t)gen_range(r, 0, 8);
    c->q_stride = (int32_t)gen_range(r, -2, 8);
    if (gen_chance(r, 60)) {
        c->has_swa = true;
        c->swa.mapping_len = (size_t)mapping_len;
        c->swa.mapping = malloc(c->swa.mapping_len * sizeof(int64_t));
        if (!c->swa.mapping) {
            return false;
        }
        for (size_t k = 0; k < c->swa.mapping_len; k++) {
            c->swa.mapping[k] = gen_chance(r, 3) ? ((int64_t)1 << 40) + (int64_t)k
                                                 : gen_range(r, 0, 100000);
        }
        c->swa.mapping[c->swa.mapping_len - 1] = gen_chance(r, 80) ? -1 : 7;
        c->swa.page_table = gen_chance(r, 80);
        c->swa.has_out_len = gen_chance(r, 80);
        c->swa.out_len = (size_t)gen_range(r, 0, 1100);
        if (gen_chance(r, 80)) {
            c->swa.n_out = (size_t)gen_range(r, 0, 1200);
            c->swa.out_cache_loc = malloc((c->swa.n_out + 1) * sizeof(int64_t));
            if (!c->swa.out_cache_loc) {
                return false;
            }
            for (size_t t = 0; t < c->swa.n_out; t++) {
                c->swa.out_cache_loc[t] = gen_chance(r, 10) ? -1 : gen_range(r, 0, mapping_len - 1);
            }
        }
    }
    if (gen_chance(r, 30)) {
        c->init[GM_BUF_PAGE_TABLE].kind = GM_INIT_FILL;
        c->init[GM_BUF_PAGE_TABLE].fill = -7;
    }
    return true;
}

#endif
