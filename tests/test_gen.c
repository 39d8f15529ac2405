/* The generator's shape runs (harness_gen_case_like): a case like another
 * keeps every argument a fused entry point gets but its device tensors'
 * contents (so a worker replays one CUDA graph for the run), is valid, and
 * has contents of its own. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "gm_test.h"

#define TEST_GEN_SHAPES 300
#define TEST_GEN_LIKE 6

/* Everything that fixes the shape: sizes, scalars, optional parts, prior contents. */
static void test_gen_same_shape(const gm_case *a, const gm_case *b) {
    CHECK_EQ_I64(a->mode, b->mode);
    CHECK_EQ_I64(a->bs, b->bs);
    CHECK_EQ_I64(a->pool, b->pool);
    CHECK_EQ_I64(a->width, b->width);
    CHECK_EQ_I64(a->page_size, b->page_size);
    CHECK_EQ_I64(a->max_context_len, b->max_context_len);
    CHECK_EQ_I64(a->speculative_step_id, b->speculative_step_id);
    CHECK_EQ_I64(a->num_draft_tokens, b->num_draft_tokens);
    CHECK_EQ_I64(a->q_stride, b->q_stride);
    CHECK_EQ_I64(a->has_swa, b->has_swa);
    CHECK_EQ_I64(a->swa.mapping_len, b->swa.mapping_len);
    CHECK_EQ_I64(a->swa.page_table, b->swa.page_table);
    CHECK_EQ_I64(a->swa.has_out_len, b->swa.has_out_len);
    CHECK_EQ_I64(a->swa.out_len, b->swa.out_len);
    CHECK_EQ_I64(a->swa.n_out, b->swa.n_out);
    CHECK_EQ_I64(a->swa.out_cache_loc != NULL, b->swa.out_cache_loc != NULL);
    for (int k = 0; k < GM_BUF_COUNT; k++) {
        CHECK_EQ_I64(a->init[k].kind, b->init[k].kind);
        CHECK_EQ_I64(a->init[k].fill, b->init[k].fill);
    }
}

/* Whether the device-side contents differ anywhere. */
static bool test_gen_new_contents(const gm_case *a, const gm_case *b) {
    return memcmp(a->req_to_token, b->req_to_token, a->pool * a->width * sizeof(int32_t)) != 0 ||
           memcmp(a->seq_lens, b->seq_lens, a->bs * sizeof(int64_t)) != 0 ||
           memcmp(a->req_pool_indices, b->req_pool_indices, a->bs * sizeof(int64_t)) != 0;
}

static void test_case_like(void) {
    harness_gen g;
    harness_gen_seed(&g, 20261201);
    gm_error err = {0};
    long fresh = 0, like = 0;
    for (int s = 0; s < TEST_GEN_SHAPES; s++) {
        gm_case shape;
        gm_case_init(&shape);
        CHECK(harness_gen_case(&g, &shape, &err));
        for (int k = 0; k < TEST_GEN_LIKE; k++) {
            gm_case c;
            gm_case_init(&c);
            CHECK(harness_gen_case_like(&g, &shape, &c, &err));
            CHECK(gm_case_check(&c, &err));
            test_gen_same_shape(&shape, &c);
            fresh += test_gen_new_contents(&shape, &c);
            like++;
            gm_case_free(&c);
        }
        gm_case_free(&shape);
    }
    fprintf(stderr, "%ld of %ld cases like another have contents of their own\n", fresh, like);
    /* a one-row, one-token case may draw the same contents again; few do */
    CHECK(fresh * 100 >= like * 90);
}

int main(void) {
    GM_RUN(test_case_like);
    GM_TEST_END();
}
