/* The fused kernel's semantics on the host (kernel/fused_cpu.c), on
 * hand-built launches: values the SPEC fixes, and every out-of-bounds
 * precondition of SPEC section 3 reported instead of performed. */
#include <stdint.h>
#include <string.h>

#include "fused_cpu.h"
#include "gm_test.h"

/* A small launch: bs rows over a [pool, W] req_to_token, P = page_size,
 * page tables of `pages` columns. Buffers live in the struct. */
typedef struct {
    fused_params p;
    int64_t rpi[8], seq[8];
    int32_t rtt[64];
    int64_t mapping[16];
    int64_t loc[8];
    int32_t qlens[8];
    int32_t cache[8], cu_k[9], cu_q[9], pt[64], swa_pt[64];
    int64_t swa_out[16];
} launch;

static void launch_init(launch *l, int64_t bs, int64_t pool, int64_t width, int64_t page_size,
                        int64_t pages) {
    memset(l, 0, sizeof *l);
    l->p.req_pool_indices = l->rpi;
    l->p.seq_lens = l->seq;
    l->p.req_to_token = l->rtt;
    l->p.req_to_token_rows = pool;
    l->p.req_to_token_stride = width;
    l->p.qlens = l->qlens;
    l->p.cache_seqlens = l->cache;
    l->p.cu_seqlens_k = l->cu_k;
    l->p.page_table = l->pt;
    l->p.page_table_stride = pages;
    l->p.bs = bs;
    l->p.max_seq_pages = pages;
    l->p.page_size = page_size;
    for (int i = 0; i < 64; i++) {
        l->rtt[i] = i;
        l->pt[i] = l->swa_pt[i] = -7; /* stale contents */
    }
    for (int i = 0; i < 9; i++) {
        l->cu_k[i] = l->cu_q[i] = -5;
    }
}

static void launch_swa(launch *l, int64_t mapping_len, int64_t n_out, int64_t out_len) {
    l->p.swa_mapping = l->mapping;
    l->p.swa_mapping_len = mapping_len;
    l->p.swa_page_table = l->swa_pt;
    if (n_out >= 0) {
        l->p.out_cache_loc = l->loc;
        l->p.n_out = n_out;
    }
    l->p.swa_out_cache_loc = l->swa_out;
    l->p.out_len = out_len;
    for (int i = 0; i < 16; i++) {
        l->mapping[i] = 100 + i;
        l->swa_out[i] = 55;
    }
}

static bool launch_run(launch *l, fused_oob *oob) { return fused_cpu_run(&l->p, oob); }

static void test_truncating_division(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 1, 1, 4, 128, 2);
    l.p.max_seq_pages = 1;
    l.rtt[0] = -1;
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.pt[0], 0);  /* -1 / 128 truncates to 0 (legacy floors to -1) */
    CHECK_EQ_I64(l.pt[1], -7); /* beyond max_seq_pages: untouched */
    l.rtt[0] = -129;
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.pt[0], -1); /* floor would give -2 */

    /* Every small dividend, a power-of-two page (the shift path) and not. */
    static const int64_t sizes[] = {1, 2, 3, 16, 128, 1000};
    for (int s = 0; s < 6; s++) {
        launch_init(&l, 1, 1, 4, sizes[s], 1);
        for (int32_t tok = -300; tok <= 300; tok++) {
            l.rtt[0] = tok;
            CHECK(launch_run(&l, &oob));
            if (l.pt[0] != (int32_t)(tok / sizes[s])) {
                CHECK_EQ_I64(l.pt[0], tok / sizes[s]);
            }
        }
        l.rtt[0] = INT32_MIN;
        CHECK(launch_run(&l, &oob));
        CHECK_EQ_I64(l.pt[0], INT32_MIN / sizes[s]);
    }
}

static void test_cache_seqlens_and_scan(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 3, 3, 4, 1, 4);
    l.rpi[0] = 0, l.rpi[1] = 1, l.rpi[2] = 2;
    l.seq[0] = ((int64_t)1 << 32) + 5; /* int32 keeps the low bits: 5 */
    l.seq[1] = INT32_MAX;
    l.seq[2] = 10;
    l.p.seqlen_offset = 3;
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.cache[0], 8);
    CHECK_EQ_I64(l.cache[1], INT32_MIN + 2); /* INT32_MAX + 3 wraps */
    CHECK_EQ_I64(l.cache[2], 13);
    CHECK_EQ_I64(l.cu_k[0], -5); /* [0] is never written */
    CHECK_EQ_I64(l.cu_k[1], 8);
    CHECK_EQ_I64(l.cu_k[2], (int64_t)8 + INT32_MIN + 2);
    CHECK_EQ_I64(l.cu_k[3], (int64_t)8 + INT32_MIN + 2 + 13);
    for (int p = 0; p < 4; p++) {
        CHECK_EQ_I64(l.pt[4 + p], 4 + p); /* row 1: req_to_token[1][p] / 1 */
    }
}

static void test_q_modes(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 3, 3, 1, 1, 1);
    l.p.cu_seqlens_q = l.cu_q;
    l.p.q_mode = FUSED_Q_CUMSUM;
    l.qlens[0] = INT32_MAX, l.qlens[1] = 1, l.qlens[2] = 2;
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.cu_q[0], -5);
    CHECK_EQ_I64(l.cu_q[1], INT32_MAX);
    CHECK_EQ_I64(l.cu_q[2], INT32_MIN);
    CHECK_EQ_I64(l.cu_q[3], INT32_MIN + 2);

    launch_init(&l, 3, 3, 1, 1, 1);
    l.p.cu_seqlens_q = l.cu_q;
    l.p.q_mode = FUSED_Q_STRIDED;
    l.p.q_stride = -1073741824; /* -2^30: 3 * q_stride wraps to 2^30 */
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.cu_q[1], -1073741824);
    CHECK_EQ_I64(l.cu_q[2], INT32_MIN);
    CHECK_EQ_I64(l.cu_q[3], 1073741824);

    launch_init(&l, 2, 2, 1, 1, 1);
    l.p.cu_seqlens_q = l.cu_q;
    l.p.q_mode = FUSED_Q_NONE;
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.cu_q[1], -5); /* untouched outside the extend modes */
}

static void test_swa_page_table(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 1, 1, 8, 2, 4);
    launch_swa(&l, 16, -1, 0);
    l.rtt[0] = -1;       /* sentinel: -1 without a lookup */
    l.rtt[2] = -2;       /* any negative slot: -1 */
    l.rtt[4] = 3;        /* mapping[3] = 103 -> 103 / 2 = 51 */
    l.rtt[6] = 15;
    l.mapping[15] = ((int64_t)1 << 40) + 6; /* divided first, then int32 */
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.swa_pt[0], -1);
    CHECK_EQ_I64(l.swa_pt[1], -1);
    CHECK_EQ_I64(l.swa_pt[2], 51);
    CHECK_EQ_I64(l.swa_pt[3], 3); /* (2^40 + 6) / 2 = 2^39 + 3, low 32 bits: 3 */
    CHECK_EQ_I64(l.pt[0], 0); /* -1 / 2 truncates */
    CHECK_EQ_I64(l.pt[1], -1);
}

static void test_swa_out(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 1, 1, 1, 1, 1);
    launch_swa(&l, 16, 3, 5);
    l.loc[0] = 4, l.loc[1] = -1, l.loc[2] = -7;
    l.mapping[4] = ((int64_t)1 << 40) + 3; /* kept in full: no truncation */
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.swa_out[0], ((int64_t)1 << 40) + 3);
    CHECK_EQ_I64(l.swa_out[1], -1);
    CHECK_EQ_I64(l.swa_out[2], -1);
    CHECK_EQ_I64(l.swa_out[3], 0); /* zero-padded tail */
    CHECK_EQ_I64(l.swa_out[4], 0);
    CHECK_EQ_I64(l.swa_out[5], 55); /* past out_len: untouched */

    launch_init(&l, 1, 1, 1, 1, 1);
    launch_swa(&l, 16, 6, 2); /* n above out_len: min(out_len, n) slots */
    l.loc[0] = 1, l.loc[1] = 2, l.loc[2] = 99; /* slot 2 is never read */
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.swa_out[0], 101);
    CHECK_EQ_I64(l.swa_out[1], 102);

    launch_init(&l, 1, 1, 1, 1, 1);
    launch_swa(&l, 16, -1, 3); /* no out_cache_loc: the whole buffer zeroed */
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.swa_out[0], 0);
    CHECK_EQ_I64(l.swa_out[2], 0);
    CHECK_EQ_I64(l.swa_out[3], 55);
}

static void test_empty_batch_does_nothing(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 0, 1, 1, 1, 1);
    launch_swa(&l, 16, -1, 3);
    CHECK(launch_run(&l, &oob));
    CHECK_EQ_I64(l.swa_out[0], 55); /* even the SWA-out programs are not launched */
    CHECK_EQ_I64(l.cu_k[1], -5);
}

static void test_out_of_bounds_reported(void) {
    launch l;
    fused_oob oob;
    char what[160];

    launch_init(&l, 1, 2, 4, 1, 4);
    l.rpi[0] = 2; /* == pool */
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.hit && oob.buf == FUSED_BUF_REQ_TO_TOKEN && !oob.write);
    CHECK_EQ_I64(oob.index, 8);
    fused_oob_describe(&oob, what, sizeof what);
    CHECK_STR_CONTAINS(what, "read of req_to_token[8] outside [0, 8)");

    launch_init(&l, 1, 2, 4, 1, 4);
    l.rpi[0] = -1;
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_REQ_TO_TOKEN);
    CHECK_EQ_I64(oob.index, -4);

    launch_init(&l, 1, 1, 8, 2, 4);
    launch_swa(&l, 4, -1, 0);
    l.rtt[2] = 4; /* tok == len(mapping) */
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_SWA_MAPPING);
    CHECK_EQ_I64(oob.index, 4);
    CHECK_EQ_I64(l.swa_pt[1], -7); /* the failing access did not write */

    launch_init(&l, 1, 1, 1, 1, 1);
    launch_swa(&l, 4, 1, 1);
    l.loc[0] = 9;
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_SWA_MAPPING);
    CHECK_EQ_I64(oob.index, 9);

    launch_init(&l, 2, 2, 8, 2, 2);
    l.p.max_seq_pages = 3; /* one page past the row: a write into row 1 */
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_PAGE_TABLE && oob.write);
    CHECK_EQ_I64(oob.row, 0);
    CHECK_EQ_I64(oob.index, 2);
    CHECK_EQ_I64(l.pt[2], -7); /* row 1 was not overwritten */
    fused_oob_describe(&oob, what, sizeof what);
    CHECK_STR_CONTAINS(what, "write of page_table[0][2] past the row width 2");
}

static void test_flat_read_past_row_end(void) {
    /* With max_seq_pages above the width the read walks into the next row
     * before the write overruns: the first access out of bounds is the
     * write, and the read itself (row 0, page 2 -> flat 4 = row 1) is not. */
    launch l;
    fused_oob oob;
    launch_init(&l, 1, 2, 4, 2, 2);
    l.p.max_seq_pages = 3;
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_PAGE_TABLE);
    CHECK_EQ_I64(l.pt[0], 0);
    CHECK_EQ_I64(l.pt[1], 1); /* rtt[2] / 2 */
}

static void test_huge_pool_index_wraps_to_out_of_bounds(void) {
    launch l;
    fused_oob oob;
    launch_init(&l, 1, 2, 4, 1, 1);
    l.rpi[0] = INT64_MAX / 2; /* r * W overflows int64: must not be UB */
    CHECK(!launch_run(&l, &oob));
    CHECK(oob.buf == FUSED_BUF_REQ_TO_TOKEN);
}

int main(void) {
    GM_RUN(test_truncating_division);
    GM_RUN(test_cache_seqlens_and_scan);
    GM_RUN(test_q_modes);
    GM_RUN(test_swa_page_table);
    GM_RUN(test_swa_out);
    GM_RUN(test_empty_batch_does_nothing);
    GM_RUN(test_out_of_bounds_reported);
    GM_RUN(test_flat_read_past_row_end);
    GM_RUN(test_huge_pool_index_wraps_to_out_of_bounds);
    GM_TEST_END();
}
