/* The fuzz decoder's reach (fuzz/): every dictionary entry lands where it
 * says, and random bytes reach every region of the case space the fuzzer
 * must reach (test_fuzz_decode.c has the codec itself).
 *
 *   test_fuzz_reach DICT
 *
 * All randomness is seeded: the same build always checks the same inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_array.h"
#include "fuzz_decode.h"
#include "fuzz_encode.h"
#include "fuzz_input.h"
#include "fuzz_mutate.h"
#include "fuzz_output.h"
#include "fuzz_recipe.h"
#include "fuzz_rng.h"
#include "fuzz_value.h"
#include "gm_json.h"
#include "harness.h"
#include "gm_test.h"
#include "test_fuzz_inputs.h"


static const char *dict_path;

/* ---- the dictionary ------------------------------------------------------------ */

/* A case with every array the dictionary's records address, values none
 * of the entries writes, and max_seq_pages past the table so that the
 * encoding is not confined (records are stored as they are). */
static void dict_base_case(gm_case *c) {
    gm_case_init(c);
    c->mode = GM_MODE_DRAFT_EXTEND;
    c->page_size = 16;
    c->max_context_len = 64;
    c->has_max_seq_pages = true;
    c->max_seq_pages = 5;
    c->pool = 5;
    c->width = 64;
    c->bs = 4;
    c->req_to_token = calloc(c->pool * c->width, sizeof(int32_t));
    c->req_pool_indices = calloc(c->bs, sizeof(int64_t));
    c->seq_lens = calloc(c->bs, sizeof(int64_t));
    c->seq_lens_cpu = calloc(c->bs, sizeof(int64_t));
    c->qlens = calloc(c->bs, sizeof(int32_t));
    c->has_swa = true;
    c->swa.page_table = true;
    c->swa.mapping_len = 337;
    c->swa.mapping = calloc(c->swa.mapping_len, sizeof(int64_t));
    c->swa.n_out = 4;
    c->swa.out_cache_loc = calloc(c->swa.n_out, sizeof(int64_t));
    c->swa.has_out_len = true;
    c->swa.out_len = 4;
    for (size_t k = 0; k < c->pool * c->width; k++) {
        c->req_to_token[k] = (int32_t)k + 3;
    }
    for (size_t i = 0; i < c->bs; i++) {
        c->req_pool_indices[i] = (int64_t)i + 1;
        c->seq_lens[i] = c->seq_lens_cpu[i] = (int64_t)i + 5;
        c->qlens[i] = 3;
        c->swa.out_cache_loc[i] = (int64_t)i + 3;
    }
    for (size_t t = 0; t < c->swa.mapping_len; t++) {
        c->swa.mapping[t] = (int64_t)t + 7;
    }
}

/* The input of `base` with `record` inserted right after the header. */
static gm_case dict_apply(const gm_case *base, const uint8_t *record, size_t len) {
    uint8_t *bytes = NULL, input[4096];
    size_t size = 0;
    gm_case out;
    gm_error err = {0};
    CHECK(fuzz_encode(base, NULL, &bytes, &size, &err));
    CHECK(size >= 60 && size + len <= sizeof input);
    memcpy(input, bytes, 60);
    memcpy(input + 60, record, len);
    memcpy(input + 60 + len, bytes + 60, size - 60);
    CHECK(fuzz_decode(input, size + len, &out, &err));
    free(bytes);
    return out;
}

/* Every record entry changes the case; named ones do what they say. */
static void test_dictionary(void) {
    FILE *f = fopen(dict_path, "r");
    CHECK(f != NULL);
    gm_case base;
    dict_base_case(&base);
    char line[512];
    size_t records = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        uint8_t record[64];
        if (strncmp(line, "set_", 4) != 0 && strncmp(line, "fill_", 5) != 0) {
            continue;
        }
        size_t len = test_fuzz_inputs_dict_value(line, record, sizeof record);
        gm_case c = dict_apply(&base, record, len);
        records++;
        if (fuzz_encode_equal(&base, &c)) {
            fprintf(stderr, "dictionary entry changes nothing: %s", line);
        }
        CHECK(!fuzz_encode_equal(&base, &c));
        if (strncmp(line, "set_seq0_int32_max=", 19) == 0) {
            CHECK_EQ_I64(c.seq_lens[0], INT32_MAX);
        } else if (strncmp(line, "set_seq0_mcl_p1=", 16) == 0) {
            CHECK_EQ_I64(c.seq_lens[0], c.max_context_len + 1);
        } else if (strncmp(line, "set_tok_r0p1_neg1=", 18) == 0) {
            CHECK_EQ_I64(c.req_to_token[c.page_size], -1);
        } else if (strncmp(line, "set_map0_2p40p3=", 16) == 0) {
            CHECK_EQ_I64(c.swa.mapping[0], ((int64_t)1 << 40) + 3);
        } else if (strncmp(line, "set_loc0_neg_maplen_m1=", 23) == 0) {
            CHECK_EQ_I64(c.swa.out_cache_loc[0], -(int64_t)c.swa.mapping_len - 1);
        } else if (strncmp(line, "set_rpilast_zero=", 17) == 0) {
            CHECK_EQ_I64(c.req_pool_indices[c.bs - 1], 0);
        }
        gm_case_free(&c);
    }
    if (f != NULL) {
        fclose(f);
    }
    gm_case_free(&base);
    CHECK(records >= 30);
}

/* ---- reachability --------------------------------------------------------------- */

enum { FEATURES_MAX = 160 };

typedef struct {
    const char *name[FEATURES_MAX];
    size_t hits[FEATURES_MAX];
    size_t n;
} features;

static void feature(features *f, const char *name, bool hit) {
    size_t k = 0;
    while (k < f->n && strcmp(f->name[k], name) != 0) {
        k++;
    }
    if (k == f->n && f->n < FEATURES_MAX) {
        f->name[f->n++] = name;
    }
    if (k < FEATURES_MAX) {
        f->hits[k] += hit;
    }
}

static bool any_seq(const gm_case *c, bool (*pred)(int64_t v, const gm_case *c)) {
    for (size_t i = 0; i < c->bs; i++) {
        if (pred(c->seq_lens[i], c)) {
            return true;
        }
    }
    return false;
}

static bool seq_zero(int64_t v, const gm_case *c) { (void)c; return v == 0; }
static bool seq_one(int64_t v, const gm_case *c) { (void)c; return v == 1; }
static bool seq_negative(int64_t v, const gm_case *c) { (void)c; return v < 0; }
static bool seq_int32_max(int64_t v, const gm_case *c) { (void)c; return v == INT32_MAX; }
static bool seq_int32_min(int64_t v, const gm_case *c) { (void)c; return v == INT32_MIN; }
static bool seq_beyond_int32(int64_t v, const gm_case *c) { (void)c; return v > INT32_MAX; }
static bool seq_is_mcl(int64_t v, const gm_case *c) { return v == c->max_context_len; }
static bool seq_beyond_mcl(int64_t v, const gm_case *c) {
    return v > c->max_context_len && v <= INT32_MAX;
}
static bool seq_page_minus(int64_t v, const gm_case *c) {
    return c->page_size > 1 && v > 0 && v % c->page_size == c->page_size - 1 && v > c->page_size;
}
static bool seq_page(int64_t v, const gm_case *c) {
    return c->page_size > 1 && v > 0 && v % c->page_size == 0;
}
static bool seq_page_plus(int64_t v, const gm_case *c) {
    return c->page_size > 1 && v > c->page_size && v % c->page_size == 1;
}

/* A page-start token of a row in use equal to (exact) or below `v`. */
static bool page_token(const gm_case *c, int32_t v, bool below) {
    size_t pages = gm_case_max_num_pages(c);
    for (size_t i = 0; i < c->bs; i++) {
        int64_t r = c->req_pool_indices[i];
        for (size_t p = 0; r >= 0 && (uint64_t)r < c->pool && p < pages; p++) {
            int32_t t = c->req_to_token[(size_t)r * c->width + p * (size_t)c->page_size];
            if (below ? t < v : t == v) {
                return true;
            }
        }
    }
    return false;
}

static bool mapping_beyond_int32(const gm_case *c) {
    for (size_t t = 0; c->has_swa && t < c->swa.mapping_len; t++) {
        if (c->swa.mapping[t] > INT32_MAX || c->swa.mapping[t] < INT32_MIN) {
            return true;
        }
    }
    return false;
}

static bool loc_is(const gm_case *c, int64_t v, bool below) {
    for (size_t t = 0; c->has_swa && c->swa.out_cache_loc != NULL && t < c->swa.n_out; t++) {
        if (below ? c->swa.out_cache_loc[t] < v : c->swa.out_cache_loc[t] == v) {
            return true;
        }
    }
    return false;
}

static bool cpu_lags(const gm_case *c) {
    if (c->seq_lens_cpu == NULL || c->bs == 0) {
        return false;
    }
    int64_t max_dev = c->seq_lens[0], max_host = c->seq_lens_cpu[0];
    for (size_t i = 1; i < c->bs; i++) {
        max_dev = c->seq_lens[i] > max_dev ? c->seq_lens[i] : max_dev;
        max_host = c->seq_lens_cpu[i] > max_host ? c->seq_lens_cpu[i] : max_host;
    }
    return max_host < max_dev;
}

static bool padded_tail(const gm_case *c) {
    return c->bs >= 2 && c->req_pool_indices[c->bs - 1] == 0 && c->seq_lens[c->bs - 1] == 1 &&
           (c->req_pool_indices[0] != 0 || c->seq_lens[0] != 1);
}

static bool qlens_nonzero(const gm_case *c) {
    for (size_t i = 0; c->qlens != NULL && i < c->bs; i++) {
        if (c->qlens[i] != 0) {
            return true;
        }
    }
    return false;
}

static void features_shape(features *f, const gm_case *c) {
    static const char *const modes[GM_MODE_COUNT] = {
        "mode decode", "mode draft_decode", "mode target_verify", "mode draft_extend",
        "mode draft_extend_v2"};
    for (int m = 0; m < GM_MODE_COUNT; m++) {
        feature(f, modes[m], c->mode == (gm_mode)m);
    }
    static const struct { const char *name; int32_t p; } pages[] = {
        {"page 1", 1},   {"page 2", 2},     {"page 3", 3},     {"page 16", 16},
        {"page 64", 64}, {"page 128", 128}, {"page 256", 256}};
    bool listed = false;
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        feature(f, pages[k].name, c->page_size == pages[k].p);
        listed = listed || c->page_size == pages[k].p;
    }
    feature(f, "page other", !listed);
    feature(f, "page other <= 256", !listed && c->page_size <= 256);
    feature(f, "page > 256", c->page_size > 256);
    static const char *const bs_names[] = {
        "bs 0", "bs 1", "bs 2", "bs 3", "bs 4", "bs 5", "bs 7", "bs 8", "bs 9", "bs 15", "bs 16",
        "bs 17", "bs 31", "bs 32", "bs 33", "bs 63", "bs 64", "bs 65", "bs 127", "bs 128",
        "bs 129", "bs 255", "bs 256", "bs 257", "bs 511", "bs 512", "bs 513", "bs 1023",
        "bs 1024", "bs 1025", "bs 2047", "bs 2048", "bs 2049", "bs 4095", "bs 4096", "bs 4097",
        "bs 8191", "bs 8192", "bs 8193", "bs 16384", "bs 65536"};
    for (size_t k = 0; k < sizeof bs_names / sizeof bs_names[0]; k++) {
        feature(f, bs_names[k], c->bs == strtoul(bs_names[k] + 3, NULL, 10));
    }
    feature(f, "bs in (8193, 65536)", c->bs > 8193 && c->bs < 65536 && c->bs != 16384);
    feature(f, "bs > 16384", c->bs > 16384);
    feature(f, "width >= 4096", c->width >= 4096);
    feature(f, "width >= 16384", c->width >= 16384);
    feature(f, "width >= 2^18", c->width >= ((size_t)1 << 18));
    size_t table_width = gm_case_max_num_pages(c);
    feature(f, "pages > 1024", table_width > 1024);
    feature(f, "pages > 4096", table_width > 4096);
    feature(f, "pages > 8192", table_width > 8192);
    feature(f, "pages = 16384", table_width == 16384);
    feature(f, "pages > 4096 with page 16", table_width > 4096 && c->page_size == 16);
    feature(f, "max_context_len not a page multiple", c->max_context_len % c->page_size != 0);
    size_t pages_n = gm_case_max_num_pages(c);
    feature(f, "max_seq_pages = width", c->has_max_seq_pages && (size_t)c->max_seq_pages == pages_n);
    feature(f, "max_seq_pages < width", c->has_max_seq_pages && (size_t)c->max_seq_pages < pages_n);
    feature(f, "max_seq_pages > width", c->has_max_seq_pages && (size_t)c->max_seq_pages > pages_n);
}

static void features_batch(features *f, const gm_case *c) {
    feature(f, "seq 0", any_seq(c, seq_zero));
    feature(f, "seq 1", any_seq(c, seq_one));
    feature(f, "seq negative", any_seq(c, seq_negative));
    feature(f, "seq INT32_MAX", any_seq(c, seq_int32_max));
    feature(f, "seq INT32_MIN", any_seq(c, seq_int32_min));
    feature(f, "seq beyond int32", any_seq(c, seq_beyond_int32));
    feature(f, "seq = max_context_len", any_seq(c, seq_is_mcl));
    feature(f, "seq > max_context_len", any_seq(c, seq_beyond_mcl));
    feature(f, "seq page boundary - 1", any_seq(c, seq_page_minus));
    feature(f, "seq page boundary", any_seq(c, seq_page));
    feature(f, "seq page boundary + 1", any_seq(c, seq_page_plus));
    feature(f, "seq_lens_cpu lags", cpu_lags(c));
    feature(f, "padded tail rows", padded_tail(c));
    feature(f, "pool row out of range", !fuzz_recipe_in_bounds(c) && c->bs > 0);
    feature(f, "qlens nonzero (draft_extend)", c->mode == GM_MODE_DRAFT_EXTEND && qlens_nonzero(c));
    feature(f, "q_stride 0 (v2)", c->mode == GM_MODE_DRAFT_EXTEND_V2 && c->q_stride == 0);
    feature(f, "q_stride large (v2)", c->mode == GM_MODE_DRAFT_EXTEND_V2 && c->q_stride >= 65536);
    feature(f, "q_stride negative (v2)", c->mode == GM_MODE_DRAFT_EXTEND_V2 && c->q_stride < 0);
    feature(f, "step id > 0", c->mode == GM_MODE_DRAFT_DECODE && c->speculative_step_id > 0);
    feature(f, "draft tokens > 0", c->mode == GM_MODE_TARGET_VERIFY && c->num_draft_tokens > 0);
}

static void features_swa(features *f, const gm_case *c) {
    const gm_swa *s = &c->swa;
    feature(f, "token -1 at a page start", page_token(c, -1, false));
    feature(f, "token < -1 at a page start", page_token(c, -1, true));
    feature(f, "mapping last -1", c->has_swa && s->mapping[s->mapping_len - 1] == -1);
    feature(f, "mapping last not -1", c->has_swa && s->mapping[s->mapping_len - 1] != -1);
    feature(f, "mapping beyond int32", mapping_beyond_int32(c));
    feature(f, "out_cache_loc -1", loc_is(c, -1, false));
    feature(f, "out_cache_loc < -1", loc_is(c, -1, true));
    bool buf = c->has_swa && s->has_out_len;
    feature(f, "out_cache_loc absent", buf && s->out_cache_loc == NULL);
    feature(f, "n < out_len", buf && s->out_cache_loc != NULL && s->n_out < s->out_len);
    feature(f, "n = out_len", buf && s->out_cache_loc != NULL && s->n_out == s->out_len);
    feature(f, "n > out_len", buf && s->out_cache_loc != NULL && s->n_out > s->out_len);
    /* past several of the SWA-out programs' 512-slot tiles */
    static const struct { const char *name; size_t v; } tiles[] = {
        {"out_len 511", 511},   {"out_len 512", 512},   {"out_len 513", 513},
        {"out_len 1024", 1024}, {"out_len 1025", 1025}, {"out_len 1536", 1536},
        {"out_len 1537", 1537}, {"out_len 2049", 2049}, {"out_len 4097", 4097},
        {"out_len 16384", 16384}};
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0]; k++) {
        feature(f, tiles[k].name, buf && s->out_len == tiles[k].v);
    }
    feature(f, "n > 1536 (out_cache_loc)", c->has_swa && s->out_cache_loc != NULL && s->n_out > 1536);
    feature(f, "n = out_len > 1024", buf && s->out_cache_loc != NULL && s->n_out == s->out_len &&
                                          s->out_len > 1024);
    static const char *const fills[GM_BUF_COUNT] = {
        "init fill cache_seqlens", "init fill cu_seqlens_k", "init fill cu_seqlens_q",
        "init fill page_table", "init fill swa_page_table", "init fill swa_out_cache_loc"};
    static const char *const arrays[GM_BUF_COUNT] = {
        "init array cache_seqlens", "init array cu_seqlens_k", "init array cu_seqlens_q",
        "init array page_table", "init array swa_page_table", "init array swa_out_cache_loc"};
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        feature(f, fills[id], c->init[id].kind == GM_INIT_FILL);
        feature(f, arrays[id], c->init[id].kind == GM_INIT_ARRAY);
    }
}

/* What the decoder reaches from random bytes (test_reachability fills it). */
static features decoder_reach;

static void test_reachability(void) {
    static uint8_t buf[5000];
    features *const fp = &decoder_reach;
#define f (*fp)
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 7);
    const size_t n = 15000;
    size_t small_bs = 0, in_bounds = 0, small_cases = 0, tall = 0, wide = 0, tiles = 0;
    for (size_t k = 0; k < n; k++) {
        gm_case c;
        gm_error err = {0};
        CHECK(fuzz_decode(buf, test_fuzz_inputs_random(&rng, buf, sizeof buf), &c, &err));
        features_shape(&f, &c);
        features_batch(&f, &c);
        features_swa(&f, &c);
        small_bs += c.bs <= 64;
        in_bounds += fuzz_recipe_in_bounds(&c);
        small_cases += test_fuzz_inputs_elements(&c) <= 20000;
        tall += c.bs > 1024;
        wide += gm_case_max_num_pages(&c) > 1024;
        tiles += c.has_swa && c.swa.has_out_len && c.swa.out_len > 1024;
        gm_case_free(&c);
    }
    size_t rarest = 0;
    for (size_t k = 0; k < f.n; k++) {
        if (f.hits[k] == 0) {
            fprintf(stderr, "never reached: %s\n", f.name[k]);
        }
        CHECK(f.hits[k] > 0);
        rarest = f.hits[k] < f.hits[rarest] ? k : rarest;
    }
    fprintf(stderr, "%zu features (rarest: %s, %zu times); of %zu inputs: %zu bs <= 64, "
            "%zu in bounds, %zu small, %zu tall (bs > 1024), %zu wide (pages > 1024), "
            "%zu out_len > 1024\n", f.n, f.name[rarest], f.hits[rarest], n, small_bs, in_bounds,
            small_cases, tall, wide, tiles);
    /* The bias: most cases small and in bounds, so the comparison means
     * something and runs fast; a minority large or breaking preconditions. */
    CHECK(small_bs * 10 >= n * 7);
    CHECK(in_bounds * 10 >= n * 6);
    CHECK(in_bounds * 20 <= n * 19);
    CHECK(small_cases * 10 >= n * 6);
    /* tall and wide shapes: a few percent each */
    CHECK(tall * 100 >= n * 1 && tall * 100 <= n * 8);
    CHECK(wide * 100 >= n * 1 && wide * 100 <= n * 8);
#undef f
}

/* Beyond the sweep on purpose: page sizes past 256 (SPEC's range is 1 to
 * 256; the decoder keeps them to see that nothing breaks) and tables of
 * 2^18 tokens a row (the generator's token budget is 2^19 a case). */
static bool gen_out_of_scope(const char *feature_name) {
    static const char *const names[] = {"page > 256", "width >= 2^18"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(names[k], feature_name) == 0) {
            return true;
        }
    }
    return false;
}

/* Every feature random decoder bytes reach, the sweep's generator
 * (harness_gen_case, one seed) reaches too (issue 23: both draw from
 * core/gm_space.h; the sweep once drew no out_cache_loc below -1). */
static void test_generator_reach(void) {
    static features f;
    harness_gen g;
    harness_gen_seed(&g, 1);
    const size_t n = 20000;
    size_t in_bounds = 0, sum_wrap = 0, nonpositive = 0;
    for (size_t k = 0; k < n; k++) {
        gm_case c;
        gm_case_init(&c);
        gm_error err = {0};
        CHECK(harness_gen_case(&g, &c, &err));
        features_shape(&f, &c);
        features_batch(&f, &c);
        features_swa(&f, &c);
        in_bounds += fuzz_recipe_in_bounds(&c);
        int64_t sum = 0, offset = gm_case_seqlen_offset(&c);
        bool nonpos = false;
        for (size_t i = 0; i < c.bs; i++) {
            sum += c.seq_lens[i] >= 0 && c.seq_lens[i] <= INT32_MAX ? c.seq_lens[i] : 0;
            nonpos = nonpos || (__int128)c.seq_lens[i] + offset < 0; /* no int64 overflow */
        }
        sum_wrap += c.bs >= 2 && sum > INT32_MAX;
        nonpositive += nonpos;
        gm_case_free(&c);
    }
    for (size_t k = 0; k < decoder_reach.n; k++) {
        size_t j = 0;
        while (j < f.n && strcmp(f.name[j], decoder_reach.name[k]) != 0) {
            j++;
        }
        bool reached = j < f.n && f.hits[j] > 0;
        if (!reached && decoder_reach.hits[k] > 0 && !gen_out_of_scope(decoder_reach.name[k])) {
            fprintf(stderr, "the decoder reaches it, the generator never: %s\n",
                    decoder_reach.name[k]);
            CHECK(reached);
        }
    }
    fprintf(stderr, "generator: of %zu cases %zu in bounds, %zu with a running sum past int32, "
            "%zu with seq_len + offset < 0\n", n, in_bounds, sum_wrap, nonpositive);
    CHECK(sum_wrap > 0);
    CHECK(nonpositive > 0);
    /* most cases still compare buffers (the sweep is for GPU targets) */
    CHECK(in_bounds * 10 >= n * 6);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_fuzz_reach DICT\n");
        return 2;
    }
    dict_path = argv[1];
    GM_RUN(test_dictionary);
    GM_RUN(test_reachability);
    GM_RUN(test_generator_reach);
    GM_TEST_END();
}
