/* The planted faults of kernel/fused_faults.h, each live on the CPU.
 *
 * tests/campaign.cmake compiles kernel/fused_cpu.c once per fault with
 * GMFUZZ_FAULT_<NAME> and its two entry points renamed (fault_fused_*), and
 * links that copy next to the correct kernel. Each test then runs one
 * launch that provokes every fault through both and checks that the fault
 * shows exactly where its catalogue entry says: a differing buffer (and,
 * for the scan faults, the first differing row), or an out-of-bounds
 * access the correct kernel does not make.
 *
 *   test_fault_<name> <name>             that fault against the kernel
 *   test_fault_<name> --catalogue FILE   the catalogue against FILE
 *                                        (kernel/fused_program.h)
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fused_cpu.h"
#include "fused_faults.h"
#include "gm_test.h"

/* The faulted copy of fused_cpu_run (renamed at compile time). */
bool fault_fused_cpu_run(const fused_params *p, fused_oob *oob);

enum { BS = 300, POOL = 2, WIDTH = 16, PAGE = 4, PAGES = 4, MAP = 40, OUT_LEN = 4 };

/* One launch's inputs and outputs; the outputs start stale. */
typedef struct {
    fused_params p;
    int64_t rpi[BS], seq[BS];
    int32_t rtt[POOL * WIDTH];
    int64_t mapping[MAP];
    int64_t loc[2];
    int32_t cache[BS], cu_k[BS + 1], cu_q[BS + 1], pt[BS * PAGES], swa_pt[BS * PAGES];
    int32_t guard[2 * BS]; /* right after swa_pt: a write past it lands here */
    int64_t swa_out[OUT_LEN];
    fused_oob oob;
} launch;

static void launch_inputs(launch *l) {
    for (int i = 0; i < BS; i++) {
        l->rpi[i] = i % POOL;
        l->seq[i] = 1 + i % 3;
    }
    for (int i = 0; i < POOL * WIDTH; i++) {
        l->rtt[i] = i;
    }
    l->rtt[PAGE] = -1; /* row 0, page 1: the "no slot" sentinel */
    for (int i = 0; i < MAP; i++) {
        l->mapping[i] = 100 + i;
    }
    l->mapping[MAP - 1] = -1;
    l->loc[0] = -1;
    l->loc[1] = 3;
}

static void launch_outputs(launch *l) {
    memset(l->cache, 0x7f, sizeof l->cache);
    for (int i = 0; i <= BS; i++) {
        l->cu_k[i] = l->cu_q[i] = -5;
    }
    for (int i = 0; i < BS * PAGES; i++) {
        l->pt[i] = l->swa_pt[i] = -7;
    }
    for (int i = 0; i < 2 * BS; i++) {
        l->guard[i] = -9;
    }
    for (int i = 0; i < OUT_LEN; i++) {
        l->swa_out[i] = 55;
    }
}

/* Draft-extend-v2 style launch with an SWA model, an offset, a sentinel
 * token, a sentinel location and n < out_len: every fault's trigger. */
static void launch_init(launch *l) {
    memset(l, 0, sizeof *l);
    launch_inputs(l);
    launch_outputs(l);
    fused_params *p = &l->p;
    p->req_pool_indices = l->rpi;
    p->seq_lens = l->seq;
    p->req_to_token = l->rtt;
    p->req_to_token_rows = POOL;
    p->req_to_token_stride = WIDTH;
    p->swa_mapping = l->mapping;
    p->swa_mapping_len = MAP;
    p->out_cache_loc = l->loc;
    p->n_out = 2;
    p->cache_seqlens = l->cache;
    p->cu_seqlens_k = l->cu_k;
    p->cu_seqlens_q = l->cu_q;
    p->page_table = l->pt;
    p->page_table_stride = PAGES;
    p->swa_page_table = l->swa_pt;
    p->swa_out_cache_loc = l->swa_out;
    p->out_len = OUT_LEN;
    p->bs = BS;
    p->seqlen_offset = 2;
    p->max_seq_pages = PAGES;
    p->page_size = PAGE;
    p->q_stride = 4;
    p->q_mode = FUSED_Q_STRIDED;
}

/* Where a fault must show: the first differing index of an int32 buffer,
 * a differing swa_out_cache_loc, or an out-of-bounds access. */
typedef enum {
    SHOW_CACHE,
    SHOW_CU_K,
    SHOW_CU_Q,
    SHOW_PAGE_TABLE,
    SHOW_SWA_PAGE_TABLE,
    SHOW_SWA_OUT,
    SHOW_OOB
} show;

typedef struct {
    const char *name;
    show where;
    int64_t first;     /* first differing index, or -1: any */
    fused_buf oob_buf; /* SHOW_OOB: the buffer accessed out of bounds */
    bool oob_write;    /* SHOW_OOB: a write (else a read) */
    void (*trigger)(launch *l); /* NULL, or what the launch needs beyond launch_init */
} expectation;

/* The faults that hide under a class need that class's cause in the launch. */
static void trigger_no_out_cache_loc(launch *l) {
    l->p.out_cache_loc = 0;
    l->p.n_out = 0;
}

static void trigger_negative_stride(launch *l) { l->p.q_stride = -4; }

static void trigger_negative_mapping(launch *l) { l->mapping[0] = -40; } /* row 0, page 0 */

/* The faults of issue 23 need the values the sweep once never drew. */
static void trigger_deep_token(launch *l) { l->rtt[PAGE] = -3; } /* row 0, page 1 */

static void trigger_deep_location(launch *l) { l->loc[0] = -2; }

static void trigger_sum_past_int32(launch *l) { l->seq[0] = INT32_MAX; } /* + offset 2 */

static void trigger_negative_length(launch *l) { l->seq[0] = -5; } /* + offset 2: -3 */

static const expectation expectations[] = {
    {"scan_exclusive", SHOW_CU_K, 1, FUSED_BUF_COUNT, false, NULL},
    {"scan_first_warp_only", SHOW_CU_K, 1 + FUSED_FAULT_WARP_ROWS, FUSED_BUF_COUNT, false, NULL},
    {"scan_first_block_only", SHOW_CU_K, 1 + FUSED_FAULT_BLOCK_ROWS, FUSED_BUF_COUNT, false, NULL},
    {"scan_no_seqlen_offset", SHOW_CU_K, 1, FUSED_BUF_COUNT, false, NULL},
    {"cache_seqlens_no_offset", SHOW_CACHE, 0, FUSED_BUF_COUNT, false, NULL},
    {"strided_q_off_by_one", SHOW_CU_Q, 1, FUSED_BUF_COUNT, false, NULL},
    {"page_loop_drops_partial_chunk", SHOW_PAGE_TABLE, 0, FUSED_BUF_COUNT, false, NULL},
    {"req_to_token_wrong_stride", SHOW_PAGE_TABLE, PAGES, FUSED_BUF_COUNT, false, NULL}, /* row 1 */
    {"tok_guard_dropped", SHOW_OOB, -1, FUSED_BUF_SWA_MAPPING, false, NULL},
    /* reported at its first write (row 0), before any cell is written
     * through the wrong width: checked below */
    {"swa_page_table_wrong_width", SHOW_OOB, -1, FUSED_BUF_SWA_PAGE_TABLE, true, NULL},
    {"swa_out_no_zero_pad", SHOW_SWA_OUT, 2, FUSED_BUF_COUNT, false, NULL},
    {"swa_out_ignores_num_out_tokens", SHOW_OOB, -1, FUSED_BUF_OUT_CACHE_LOC, false, NULL},
    {"loc_guard_dropped", SHOW_OOB, -1, FUSED_BUF_SWA_MAPPING, false, NULL},
    {"absent_out_pad_minus_one", SHOW_SWA_OUT, 0, FUSED_BUF_COUNT, false,
     trigger_no_out_cache_loc},
    {"negative_tok_page_dropped", SHOW_PAGE_TABLE, 1, FUSED_BUF_COUNT, false, NULL}, /* rtt[PAGE] = -1 */
    {"negative_q_stride_shifted", SHOW_CU_Q, 1, FUSED_BUF_COUNT, false, trigger_negative_stride},
    {"negative_swa_mapping_divided", SHOW_SWA_PAGE_TABLE, 0, FUSED_BUF_COUNT, false,
     trigger_negative_mapping},
    {"tok_guard_eq_minus_one", SHOW_OOB, -1, FUSED_BUF_SWA_MAPPING, false, trigger_deep_token},
    {"loc_guard_eq_minus_one", SHOW_OOB, -1, FUSED_BUF_SWA_MAPPING, false, trigger_deep_location},
    {"scan_saturates", SHOW_CU_K, 1, FUSED_BUF_COUNT, false, trigger_sum_past_int32},
    {"cache_seqlens_clamped", SHOW_CACHE, 0, FUSED_BUF_COUNT, false, trigger_negative_length},
};

static int64_t first_difference_i32(const int32_t *a, const int32_t *b, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return i;
        }
    }
    return -1;
}

static int64_t first_difference_i64(const int64_t *a, const int64_t *b, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return i;
        }
    }
    return -1;
}

static int64_t first_difference(const launch *good, const launch *bad, show where) {
    switch (where) {
    case SHOW_CACHE:
        return first_difference_i32(good->cache, bad->cache, BS);
    case SHOW_CU_K:
        return first_difference_i32(good->cu_k, bad->cu_k, BS + 1);
    case SHOW_CU_Q:
        return first_difference_i32(good->cu_q, bad->cu_q, BS + 1);
    case SHOW_PAGE_TABLE:
        return first_difference_i32(good->pt, bad->pt, BS * PAGES);
    case SHOW_SWA_PAGE_TABLE:
        return first_difference_i32(good->swa_pt, bad->swa_pt, BS * PAGES);
    case SHOW_SWA_OUT:
        return first_difference_i64(good->swa_out, bad->swa_out, OUT_LEN);
    case SHOW_OOB:
        break;
    }
    return -1;
}

static const expectation *expectation_of(const char *name) {
    for (size_t i = 0; i < sizeof expectations / sizeof expectations[0]; i++) {
        if (strcmp(expectations[i].name, name) == 0) {
            return &expectations[i];
        }
    }
    return NULL;
}

static int check_fault(const char *name) {
    const expectation *e = expectation_of(name);
    CHECK(e != NULL); /* every catalogue entry needs an expectation here */
    if (e == NULL) {
        GM_TEST_END();
    }
    static launch good, bad; /* static: about 20 KB each */
    launch_init(&good);
    launch_init(&bad);
    if (e->trigger != NULL) {
        e->trigger(&good);
        e->trigger(&bad);
    }
    CHECK(fused_cpu_run(&good.p, &good.oob)); /* the correct kernel stays in bounds */
    bool in_bounds = fault_fused_cpu_run(&bad.p, &bad.oob);
    /* Whatever the fault, nothing is written past the tables: the checked
     * execution bounds every access by the real allocation. */
    for (int i = 0; i < 2 * BS; i++) {
        CHECK_EQ_I64(bad.guard[i], -9);
    }
    if (e->where == SHOW_OOB) {
        CHECK(!in_bounds);
        CHECK_EQ_I64(bad.oob.buf, e->oob_buf);
        CHECK_EQ_I64(bad.oob.write, e->oob_write);
    } else {
        CHECK(in_bounds);
        int64_t first = first_difference(&good, &bad, e->where);
        CHECK(first >= 0);
        CHECK_EQ_I64(first, e->first);
    }
    if (e->where == SHOW_OOB && e->oob_write) {
        /* refused at the first cell, through the wrong width: none written */
        CHECK_EQ_I64(bad.oob.row, 0);
        CHECK_EQ_I64(bad.oob.given_width, PAGES + 1);
        CHECK_EQ_I64(bad.oob.len, PAGES);
        CHECK_EQ_I64(first_difference_i32(good.swa_pt, bad.swa_pt, BS * PAGES), 0);
        for (int i = 0; i < BS * PAGES; i++) {
            CHECK_EQ_I64(bad.swa_pt[i], -7);
        }
        char said[160];
        fused_oob_describe(&bad.oob, said, sizeof said);
        CHECK_STR_CONTAINS(said, "write of swa_page_table[0][0] through a row width of 5");
    }
    fprintf(stderr, "fault %s: shows as expected\n", name);
    GM_TEST_END();
}

/* Every catalogue entry has a description, a SPEC reference, an
 * expectation above and a marked block in fused_program.h; names are
 * unique; at least 8 faults. */
static int check_catalogue(const char *program_path) {
    FILE *f = fopen(program_path, "rb");
    CHECK(f != NULL);
    static char text[1 << 16];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[len] = '\0';
    if (f) {
        fclose(f);
    }
    int count = 0;
#define CHECK_ENTRY(name, description, breaks)                                             \
    do {                                                                                   \
        count++;                                                                           \
        CHECK(strlen(description) > 10);                                                   \
        CHECK_STR_CONTAINS(breaks, "SPEC 3");                                              \
        CHECK(expectation_of(#name) != NULL);                                              \
        CHECK(strstr(text, "PLANTED FAULT " #name) != NULL);                               \
        char macro_[128];                                                                  \
        snprintf(macro_, sizeof macro_, "GMFUZZ_FAULT_%s", #name);                         \
        for (char *c_ = macro_; *c_; c_++) {                                               \
            *c_ = (char)(*c_ >= 'a' && *c_ <= 'z' ? *c_ - 'a' + 'A' : *c_);                \
        }                                                                                  \
        CHECK(strstr(text, macro_) != NULL);                                               \
    } while (0);
    FUSED_FAULTS(CHECK_ENTRY)
#undef CHECK_ENTRY
    CHECK(count >= 8);
    CHECK_EQ_I64(count, (int64_t)(sizeof expectations / sizeof expectations[0]));
    for (size_t i = 0; i < sizeof expectations / sizeof expectations[0]; i++) {
        for (size_t j = i + 1; j < sizeof expectations / sizeof expectations[0]; j++) {
            CHECK(strcmp(expectations[i].name, expectations[j].name) != 0);
        }
    }
    GM_TEST_END();
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--catalogue") == 0) {
        return check_catalogue(argv[2]);
    }
    if (argc != 2) {
        fprintf(stderr, "usage: test_fault_<name> <name> | --catalogue fused_program.h\n");
        return 2;
    }
    return check_fault(argv[1]);
}
