/* triage_cases: small hand-built cases for the triage tests (classifier,
 * minimizer). Each builder fills a case from gm_case_init; allocation
 * failures end the test program (nothing to test without memory). */
#ifndef TRIAGE_CASES_H
#define TRIAGE_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_case.h"

static inline void *tc_alloc(size_t n, size_t size) {
    void *p = calloc(n + 1, size);
    if (p == NULL) {
        fprintf(stderr, "out of memory building a test case\n");
        exit(1);
    }
    return p;
}

/* `bs` rows in `mode` over a pool of `pool` rows of width max_context_len,
 * with req_to_token[r][k] = r * width + k (distinct, non-negative slots),
 * row i reading pool row i % pool, every seq_len `seq`. */
static inline void tc_case(gm_case *c, gm_mode mode, int32_t page, int32_t mcl, size_t pool,
                           size_t bs, int64_t seq) {
    gm_case_init(c);
    c->mode = mode;
    c->page_size = page;
    c->max_context_len = mcl;
    c->pool = pool;
    c->width = (size_t)mcl;
    c->req_to_token = tc_alloc(pool * c->width, sizeof(int32_t));
    for (size_t k = 0; k < pool * c->width; k++) {
        c->req_to_token[k] = (int32_t)k;
    }
    c->bs = bs;
    c->req_pool_indices = tc_alloc(bs, sizeof(int64_t));
    c->seq_lens = tc_alloc(bs, sizeof(int64_t));
    for (size_t i = 0; i < bs; i++) {
        c->req_pool_indices[i] = (int64_t)(i % pool);
        c->seq_lens[i] = seq;
    }
    if (mode == GM_MODE_DRAFT_EXTEND) {
        c->qlens = tc_alloc(bs, sizeof(int32_t));
    }
}

/* Makes `c` an SWA case with this mapping. */
static inline void tc_swa(gm_case *c, const int64_t *mapping, size_t len, bool page_table) {
    c->has_swa = true;
    c->swa.mapping = tc_alloc(len, sizeof(int64_t));
    memcpy(c->swa.mapping, mapping, len * sizeof(int64_t));
    c->swa.mapping_len = len;
    c->swa.page_table = page_table;
}

/* An swa_out_cache_loc buffer of out_len, and out_cache_loc (NULL: none). */
static inline void tc_out(gm_case *c, const int64_t *locs, size_t n, size_t out_len) {
    c->swa.has_out_len = true;
    c->swa.out_len = out_len;
    if (locs != NULL) {
        c->swa.out_cache_loc = tc_alloc(n, sizeof(int64_t));
        memcpy(c->swa.out_cache_loc, locs, n * sizeof(int64_t));
        c->swa.n_out = n;
    }
}

static inline void tc_seq_lens_cpu(gm_case *c, int64_t value) {
    c->seq_lens_cpu = tc_alloc(c->bs, sizeof(int64_t));
    for (size_t i = 0; i < c->bs; i++) {
        c->seq_lens_cpu[i] = value;
    }
}

#endif
