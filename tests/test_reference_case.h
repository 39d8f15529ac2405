/* test_reference_case: the tiny case builder and the exact-output checks
 * that the reference unit tests share (test_reference.c,
 * test_reference_lengths.c). Allocation failures count as failed checks. */
#ifndef TEST_REFERENCE_CASE_H
#define TEST_REFERENCE_CASE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm_case.h"
#include "gm_outputs.h"
#include "gm_test.h"
#include "reference.h"

#define TWO_POW_31 ((int64_t)1 << 31)
#define TWO_POW_32 ((int64_t)1 << 32)

/* ---- a tiny case builder ------------------------------------------------ */

/* malloc'ed copy of n elements of src, or n zeroed elements when src is
 * NULL; never NULL for n == 0, since the case model reads NULL as "absent". */
static inline void *test_reference_case_dup(const void *src, size_t n, size_t size) {
    void *dst = calloc(n + 1, size);
    CHECK(dst != NULL);
    if (dst != NULL && src != NULL && n > 0) {
        memcpy(dst, src, n * size);
    }
    return dst;
}

/* A one-mode case with req_to_token[r][k] = 1000 * r + k (every slot says
 * where it is), no batch yet, no SWA. */
static inline void test_reference_case_begin(gm_case *c, gm_mode mode, int32_t page_size,
                                             int32_t max_context_len, size_t pool, size_t width) {
    gm_case_init(c);
    c->mode = mode;
    c->page_size = page_size;
    c->max_context_len = max_context_len;
    c->pool = pool;
    c->width = width;
    c->req_to_token = test_reference_case_dup(NULL, pool * width, sizeof(int32_t));
    for (size_t r = 0; r < pool; r++) {
        for (size_t k = 0; k < width; k++) {
            c->req_to_token[r * width + k] = (int32_t)(1000 * r + k);
        }
    }
}

static inline void test_reference_case_token(gm_case *c, size_t row, size_t col, int32_t value) {
    c->req_to_token[row * c->width + col] = value;
}

/* seq_cpu NULL: seq_lens_cpu absent (equal to seq_lens). */
static inline void test_reference_case_batch(gm_case *c, size_t bs, const int64_t *req_pool_indices,
                                             const int64_t *seq_lens, const int64_t *seq_lens_cpu) {
    c->bs = bs;
    c->req_pool_indices = test_reference_case_dup(req_pool_indices, bs, sizeof(int64_t));
    c->seq_lens = test_reference_case_dup(seq_lens, bs, sizeof(int64_t));
    c->seq_lens_cpu =
        seq_lens_cpu != NULL ? test_reference_case_dup(seq_lens_cpu, bs, sizeof(int64_t)) : NULL;
}

static inline void test_reference_case_swa(gm_case *c, const int64_t *mapping, size_t len,
                                           bool page_table) {
    c->has_swa = true;
    c->swa.mapping = test_reference_case_dup(mapping, len, sizeof(int64_t));
    c->swa.mapping_len = len;
    c->swa.page_table = page_table;
}

/* loc NULL: no out_cache_loc this step. */
static inline void test_reference_case_out_loc(gm_case *c, const int64_t *loc, size_t n,
                                               size_t out_len) {
    c->swa.out_cache_loc = loc != NULL ? test_reference_case_dup(loc, n, sizeof(int64_t)) : NULL;
    c->swa.n_out = n;
    c->swa.has_out_len = true;
    c->swa.out_len = out_len;
}

static inline void test_reference_case_init_fill(gm_case *c, gm_buf_id id, int64_t fill) {
    c->init[id].kind = GM_INIT_FILL;
    c->init[id].fill = fill;
}

static inline void test_reference_case_init_array(gm_case *c, gm_buf_id id, const int64_t *values,
                                                  size_t n) {
    c->init[id].kind = GM_INIT_ARRAY;
    c->init[id].values = test_reference_case_dup(values, n, sizeof(int64_t));
    c->init[id].len = n;
}

/* Checks the case, prepares the prior contents and runs the reference. */
static inline void test_reference_case_run(const gm_case *c, gm_outputs *out,
                                           reference_result *res) {
    gm_error err;
    gm_error_clear(&err);
    gm_outputs_init(out);
    CHECK(gm_case_check(c, &err));
    CHECK(gm_outputs_prepare(out, c, &err));
    bool ran = reference_run(c, out, res, &err);
    CHECK(ran);
    if (!ran) {
        fprintf(stderr, "  reference_run: %s\n", err.msg);
    }
}

static inline void test_reference_case_done(gm_case *c, gm_outputs *out) {
    gm_outputs_free(out);
    gm_case_free(c);
}

/* Buffer `id` holds exactly expected[0..n) (row-major). */
static inline void test_reference_case_expect(const gm_outputs *out, gm_buf_id id,
                                              const int64_t *expected, size_t n, int line) {
    const gm_buffer *b = &out->buf[id];
    gm_test_checks++;
    if (!b->present || gm_buffer_count(b) != n) {
        gm_test_failures++;
        fprintf(stderr, "line %d: %s: %zu elements (present %d), expected %zu\n", line,
                gm_buf_name(id), gm_buffer_count(b), (int)b->present, n);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        int64_t got = gm_buffer_get(b, k);
        if (got != expected[k]) {
            gm_test_failures++;
            fprintf(stderr, "line %d: %s[%zu] = %" PRId64 ", expected %" PRId64 "\n", line,
                    gm_buf_name(id), k, got, expected[k]);
            return;
        }
    }
}

#define EXPECT_BUF(out, id, ...)                                                           \
    test_reference_case_expect((out), (id), (const int64_t[]){__VA_ARGS__},               \
                               sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t),  \
                               __LINE__)

/* The run raised `kind` at `step`, and out->error names both. */
static inline void test_reference_case_expect_raise(const gm_outputs *out,
                                                    const reference_result *res,
                                                    reference_raise kind, int step, int line) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: step %d: ", reference_raise_name(kind), step);
    gm_test_checks++;
    if (res->raised != kind || res->step != step || out->error == NULL ||
        strncmp(out->error, prefix, strlen(prefix)) != 0) {
        gm_test_failures++;
        fprintf(stderr, "line %d: expected a raise \"%s...\", got %s at step %d, error \"%s\"\n",
                line, prefix, reference_raise_name(res->raised), res->step,
                out->error != NULL ? out->error : "(null)");
    }
}

#define EXPECT_RAISE(out, res, kind, step)                                                 \
    test_reference_case_expect_raise((out), (res), (kind), (step), __LINE__)

#define EXPECT_OK(out, res)                                                                \
    do {                                                                                   \
        CHECK_EQ_I64((res)->raised, REFERENCE_OK);                                         \
        CHECK((out)->error == NULL);                                                       \
    } while (0)

#endif
