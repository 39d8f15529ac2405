/* The generator's shape runs (harness_gen_case_like): a case like another
 * keeps every argument a fused entry point gets but its device tensors'
 * contents (so a worker replays one CUDA graph for the run), is valid, and
 * has contents of its own. */
#include <stdio.h>
#include <string.h>

#include "gm_space.h"
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

/* Cases drawn in a class keep it, pass the format's rules, and mostly
 * have sizes of their own: a run of one class meets one compile, yet
 * varies its shapes. Every region is drawn from. */
static void test_case_in_class(void) {
    harness_gen g;
    harness_gen_seed(&g, 20261202);
    gm_error err = {0};
    long same = 0, resized = 0, drawn = 0;
    for (int s = 0; s < TEST_GEN_SHAPES; s++) {
        gm_case like;
        gm_case_init(&like);
        CHECK(harness_gen_case_in(&g, (harness_gen_region)(s % HARNESS_GEN_REGIONS), &like, &err));
        CHECK(gm_case_check(&like, &err));
        uint64_t key = harness_class_key_of(&like);
        for (int k = 0; k < TEST_GEN_LIKE; k++) {
            gm_case c;
            gm_case_init(&c);
            CHECK(harness_gen_case_in_class(&g, &like, &c, &err));
            CHECK(gm_case_check(&c, &err));
            same += harness_class_key_of(&c) == key;
            resized += c.bs != like.bs || c.max_context_len != like.max_context_len ||
                       c.width != like.width || c.swa.out_len != like.swa.out_len;
            drawn++;
            gm_case_free(&c);
        }
        gm_case_free(&like);
    }
    fprintf(stderr, "%ld of %ld cases drawn in a class keep it, %ld have sizes of their own\n",
            same, drawn, resized);
    CHECK_EQ_I64(same, drawn);
    CHECK(resized * 100 >= drawn * 70);
}

/* The regions give what they say. */
static void test_regions(void) {
    harness_gen g;
    harness_gen_seed(&g, 7);
    gm_error err = {0};
    for (int s = 0; s < 200; s++) {
        gm_case c;
        gm_case_init(&c);
        harness_gen_region r = (harness_gen_region)(1 + s % (HARNESS_GEN_REGIONS - 1));
        CHECK(harness_gen_case_in(&g, r, &c, &err));
        CHECK(gm_case_check(&c, &err));
        CHECK(r != HARNESS_GEN_BIG_BATCH || c.bs >= 1023);
        CHECK(r != HARNESS_GEN_WIDE_TABLE || gm_case_max_num_pages(&c) >= 2);
        CHECK(r != HARNESS_GEN_ONE_ROW || c.bs == 1);
        CHECK(r != HARNESS_GEN_SWA_TILES || (c.has_swa && c.swa.has_out_len && c.swa.out_len >= 511));
        gm_case_free(&c);
    }
}

/* Which corner of the input space (gm_space_corner) `c` is, or -1. */
static int gen_corner_of(const gm_case *c) {
    bool below = c->bs > 0 && c->mode == GM_MODE_DRAFT_DECODE, wrapped = c->bs > 0;
    for (size_t i = 0; i < c->bs; i++) {
        below = below && c->seq_lens[i] == INT64_MIN;
        wrapped = wrapped && (c->req_pool_indices[i] < 0 ||
                              c->req_pool_indices[i] >= (int64_t)c->pool);
    }
    return below ? GM_SPACE_CORNER_LENS_BELOW_INT64
                 : wrapped && c->has_max_seq_pages ? GM_SPACE_CORNER_WRAPPED_ROWS : -1;
}

/* The generator makes both corners (1 % of its cases), and each does what
 * it is for on the CPU: with M below int64 the legacy path gets past its
 * page count (step 4); wrapped rows give a mismatch that no bounds check
 * saw, on an input out of bounds. */
static void test_corners(void) {
    harness_gen g;
    harness_gen_seed(&g, 11);
    gm_error err = {0};
    harness_backend *cpu = NULL;
    CHECK(harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err));
    int seen[GM_SPACE_CORNER_N] = {0}, as_meant[GM_SPACE_CORNER_N] = {0};
    for (int s = 0; s < 20000 && cpu != NULL; s++) {
        gm_case c;
        gm_case_init(&c);
        CHECK(harness_gen_case(&g, &c, &err));
        int k = gen_corner_of(&c);
        if (k >= 0) {
            harness_run_result r;
            harness_run_result_init(&r);
            CHECK(harness_run_case(cpu, &c, GM_COMPARE_LIVE, &r, &err));
            seen[k]++;
            /* the legacy path past step 4 (M's pages); a mismatch */
            as_meant[k] += k == GM_SPACE_CORNER_LENS_BELOW_INT64
                               ? r.raised.step == 0 || r.raised.step > 4
                               : r.verdict.status == GM_STATUS_MISMATCH;
            harness_run_result_free(&r);
        }
        gm_case_free(&c);
    }
    for (int k = 0; k < GM_SPACE_CORNER_N; k++) {
        printf("  corner %s: %d cases, %d as meant\n", gm_space_corner_name((unsigned)k), seen[k],
               as_meant[k]);
        CHECK(seen[k] >= 20);
        /* the rest raise in a later step or in the SWA parts, which the
         * corners leave as drawn */
        CHECK(as_meant[k] * 10 >= seen[k] * 6);
    }
    harness_backend_close(cpu);
}

int main(void) {
    GM_RUN(test_case_like);
    GM_RUN(test_case_in_class);
    GM_RUN(test_regions);
    GM_RUN(test_corners);
    GM_TEST_END();
}
