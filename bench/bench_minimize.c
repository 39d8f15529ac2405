/* bench_minimize: the minimizer's targets (issue 4): a failing case with
 * bs <= 1024 minimizes in <= 2 s on the CPU backend, and the result has
 * bs <= 2 whenever the fault needs one row.
 *
 *   bench_minimize [BS] [--show]    (BS default 1024; --show prints each
 *                                   minimized case as JSON)
 *
 * Each case below is a realistic batch (bs rows over a pool of bs rows,
 * 16-token pages, a context of 2048 tokens, cuda-graph padded rows at the
 * end) with ONE fault planted in one row, in the middle of the batch.
 * Prints one line per case: wall time, runs, and the size before and
 * after; exits 1 when a target is missed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm_json.h"
#include "minimize.h"
#include "harness.h"

#define BENCH_PAGE 16
#define BENCH_CONTEXT 2048
#define BENCH_TARGET_SECONDS 2.0

static void *bench_alloc(size_t n, size_t size) {
    void *p = calloc(n + 1, size);
    if (p == NULL) {
        fprintf(stderr, "bench_minimize: out of memory\n");
        exit(2);
    }
    return p;
}

/* A batch of `bs` requests, each in its own pool row of distinct slots;
 * the last eighth are cuda-graph padding (pool row 0, length 1). With
 * `swa`, a mapping over every slot (slot k -> 3k + 1, last element -1)
 * and one out_cache_loc entry per row. */
static void bench_batch(gm_case *c, gm_mode mode, size_t bs, bool swa) {
    gm_case_init(c);
    c->mode = mode;
    c->page_size = BENCH_PAGE;
    c->max_context_len = BENCH_CONTEXT;
    c->pool = bs;
    c->width = BENCH_CONTEXT;
    c->bs = bs;
    c->req_to_token = bench_alloc(c->pool * c->width, sizeof(int32_t));
    c->req_pool_indices = bench_alloc(bs, sizeof(int64_t));
    c->seq_lens = bench_alloc(bs, sizeof(int64_t));
    for (size_t k = 0; k < c->pool * c->width; k++) {
        c->req_to_token[k] = (int32_t)k;
    }
    for (size_t i = 0; i < bs; i++) {
        bool padded = i >= bs - bs / 8;
        c->req_pool_indices[i] = padded ? 0 : (int64_t)i;
        c->seq_lens[i] = padded ? 1 : (int64_t)(100 + (i * 37) % (BENCH_CONTEXT - 200));
    }
    if (!swa) {
        return;
    }
    c->has_swa = true;
    c->swa.page_table = true;
    c->swa.mapping_len = c->pool * c->width + BENCH_PAGE + 1;
    c->swa.mapping = bench_alloc(c->swa.mapping_len, sizeof(int64_t));
    for (size_t k = 0; k + 1 < c->swa.mapping_len; k++) {
        c->swa.mapping[k] = 3 * (int64_t)k + 1;
    }
    c->swa.mapping[c->swa.mapping_len - 1] = -1;
    c->swa.has_out_len = true;
    c->swa.out_len = bs;
    c->swa.n_out = bs;
    c->swa.out_cache_loc = bench_alloc(bs, sizeof(int64_t));
    for (size_t t = 0; t < bs; t++) {
        c->swa.out_cache_loc[t] = (int64_t)(t * 7);
    }
}

/* The row and pool row that carry the fault. */
static size_t bench_row(const gm_case *c) { return c->bs / 3; }

static int32_t *bench_token(gm_case *c, size_t page) {
    return &c->req_to_token[bench_row(c) * c->width + page * BENCH_PAGE];
}

static void bench_negative_token(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DECODE, bs, false);
    *bench_token(c, 2) = -1;
}

static void bench_host_lag(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_TARGET_VERIFY, bs, false);
    c->num_draft_tokens = 4;
    c->seq_lens_cpu = bench_alloc(bs, sizeof(int64_t));
    memcpy(c->seq_lens_cpu, c->seq_lens, bs * sizeof(int64_t));
    c->seq_lens[bench_row(c)] = BENCH_CONTEXT - 4; /* beyond the host maximum */
}

static void bench_sentinel_wrap(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DECODE, bs, true);
    c->swa.mapping[c->swa.mapping_len - 1] = 12345; /* not the -1 convention */
    *bench_token(c, 1) = -1;
}

static void bench_int32_truncation(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DRAFT_DECODE, bs, true);
    c->speculative_step_id = 2;
    c->swa.mapping[c->swa.out_cache_loc[bench_row(c)]] = ((int64_t)1 << 40) + 3;
}

static void bench_legacy_raises(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DECODE, bs, true);
    *bench_token(c, 3) = -(int32_t)(c->pool * c->width) - 99; /* below -len(mapping) */
}

static void bench_out_of_bounds(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DRAFT_EXTEND, bs, true);
    c->qlens = bench_alloc(bs, sizeof(int32_t));
    *bench_token(c, 0) = (int32_t)c->swa.mapping_len + 5; /* past the mapping */
}

static void bench_stale_tail(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DECODE, bs, false);
    c->init[GM_BUF_PAGE_TABLE] = (gm_init){GM_INIT_FILL, -7, NULL, 0};
    for (size_t i = 0; i < bs; i++) {
        c->seq_lens[i] = 100; /* every row short: the tail is stale everywhere */
    }
}

/* int32 wraps a huge negative length into a live one that legacy's M
 * (a Python int) does not cover: seqlen_int32_wrap. */
static void bench_seqlen_int32_wrap(gm_case *c, size_t bs) {
    bench_batch(c, GM_MODE_DECODE, bs, false);
    for (size_t i = 0; i < bs; i++) {
        c->seq_lens[i] = 0;
    }
    c->seq_lens[bench_row(c)] = -((int64_t)1 << 32) + 40;
}

typedef struct {
    const char *name;
    void (*build)(gm_case *c, size_t bs);
    gm_compare level;
} bench_spec;

static double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench_show(const gm_case *c) {
    cJSON *j = gm_json_case(c);
    char *text = j != NULL ? cJSON_PrintUnformatted(j) : NULL;
    printf("    %s\n", text != NULL ? text : "(out of memory)");
    cJSON_free(text);
    cJSON_Delete(j);
}

/* Minimizes one case; false when a target is missed or a run failed. */
static bool bench_one(harness_backend *b, const bench_spec *spec, size_t bs, bool show) {
    gm_case c;
    harness_run_result r;
    triage_finding target, after;
    gm_error err = {0};
    minimize_stats stats = {.max_runs = 0};
    spec->build(&c, bs);
    harness_run_result_init(&r);
    bool ok = gm_case_check(&c, &err) && harness_run_case(b, &c, spec->level, &r, &err);
    if (ok) {
        triage_classify(&c, &r, &target);
    }
    size_t bs_before = c.bs, pool_before = c.pool;
    double start = bench_now();
    ok = ok && minimize_case(b, spec->level, &target, &c, &stats, &err);
    double seconds = bench_now() - start;
    ok = ok && harness_run_case(b, &c, spec->level, &r, &err);
    if (!ok) {
        fprintf(stderr, "%s: %s\n", spec->name, err.msg);
    } else {
        triage_classify(&c, &r, &after);
        bool met = seconds <= BENCH_TARGET_SECONDS && c.bs <= 2 &&
                   strcmp(after.signature, target.signature) == 0;
        printf("%-26s %7.3f s %6zu runs  bs %4zu -> %zu  pool %4zu -> %zu  mcl %d  mapping %zu  "
               "%s  %s\n",
               spec->name, seconds, stats.runs, bs_before, c.bs, pool_before, c.pool,
               (int)c.max_context_len, c.has_swa ? c.swa.mapping_len : 0, target.signature,
               met ? "ok" : "MISSED");
        ok = met;
        if (show) {
            bench_show(&c);
        }
    }
    harness_run_result_free(&r);
    gm_case_free(&c);
    return ok;
}

int main(int argc, char **argv) {
    static const bench_spec specs[] = {
        {"negative_token_rounding", bench_negative_token, GM_COMPARE_LIVE},
        {"stale_host_seqlens", bench_host_lag, GM_COMPARE_LIVE},
        {"sentinel_wrap", bench_sentinel_wrap, GM_COMPARE_LIVE},
        {"swa_int32_truncation", bench_int32_truncation, GM_COMPARE_LIVE},
        {"legacy_raises", bench_legacy_raises, GM_COMPARE_LIVE},
        {"fused_out_of_bounds", bench_out_of_bounds, GM_COMPARE_LIVE},
        {"stale_tail (strict)", bench_stale_tail, GM_COMPARE_STRICT},
        {"seqlen_int32_wrap", bench_seqlen_int32_wrap, GM_COMPARE_LIVE},
    };
    size_t bs = 1024;
    bool show = false;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--show") == 0) {
            show = true;
        } else {
            bs = (size_t)strtoull(argv[k], NULL, 10);
        }
    }
    harness_backend *b = NULL;
    gm_error err = {0};
    if (bs < 8 || !harness_backend_open(HARNESS_BACKEND_CPU, &b, &err)) {
        fprintf(stderr, "usage: bench_minimize [BS >= 8] [--show] %s\n", err.msg);
        return 2;
    }
    printf("minimizer, CPU backend, bs %zu, pool %zu x %d, page %d; target <= %.1f s, bs <= 2\n",
           bs, bs, BENCH_CONTEXT, BENCH_PAGE, BENCH_TARGET_SECONDS);
    bool all = true;
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        all = bench_one(b, &specs[k], bs, show) && all;
    }
    harness_backend_close(b);
    return all ? 0 : 1;
}
