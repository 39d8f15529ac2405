/* The fuzz input codec (fuzz/): every byte string decodes to a valid case,
 * decode(encode(c)) == c, the case-level mutations keep cases valid and
 * encodable, and the decoder reaches every region the fuzzer must reach.
 *
 *   test_fuzz_decode VECTOR_DIR DICT
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

static const char *vector_dir;
static const char *dict_path;

/* ---- helpers ------------------------------------------------------------ */

/* Random bytes: lengths mostly short, some long (what fuzzers feed). */
static size_t random_input(fuzz_rng *rng, uint8_t *buf, size_t cap) {
    size_t len = fuzz_rng_below(rng, 10) < 6 ? fuzz_rng_below(rng, 200)
                 : fuzz_rng_below(rng, 10) < 8 ? 200 + fuzz_rng_below(rng, 800)
                                               : 1000 + fuzz_rng_below(rng, 4000);
    len = len < cap ? len : cap;
    for (size_t k = 0; k < len; k++) {
        buf[k] = (uint8_t)fuzz_rng_next(rng);
    }
    return len;
}

static size_t case_elements(const gm_case *c) {
    size_t n = c->pool * c->width + 4 * c->bs + 2 * c->bs * gm_case_max_num_pages(c);
    if (c->has_swa) {
        n += c->swa.mapping_len + c->swa.n_out + c->swa.out_len;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        n += c->init[id].len;
    }
    return n;
}

/* The case survives the JSON formats: written, read back, the same. */
static bool json_round_trip(const gm_case *c) {
    cJSON *tree = gm_json_case(c);
    char *text = tree != NULL ? cJSON_PrintUnformatted(tree) : NULL;
    gm_limits lim;
    gm_limits_default(&lim);
    gm_doc doc;
    gm_error err = {0};
    bool ok = text != NULL && gm_json_parse(text, strlen(text), "decoded", &lim, &doc, &err) &&
              doc.kind == GM_DOC_CASE && fuzz_encode_equal(c, &doc.c);
    if (text != NULL) {
        gm_doc_free(&doc);
    }
    if (!ok) {
        fprintf(stderr, "json round trip: %s\n", err.msg);
    }
    cJSON_free(text);
    cJSON_Delete(tree);
    return ok;
}

/* encode(c) (with `hint` or without) decodes back to c. */
static bool encode_round_trip(const gm_case *c, const fuzz_recipe *hint) {
    const fuzz_encode_options opt = {.canonical = false, .hint = hint};
    uint8_t *bytes = NULL;
    size_t size = 0;
    gm_case d;
    gm_error err = {0};
    if (!fuzz_encode(c, &opt, &bytes, &size, &err)) {
        fprintf(stderr, "encode: %s\n", err.msg);
        return false;
    }
    bool ok = fuzz_decode(bytes, size, &d, &err);
    ok = ok && fuzz_encode_equal(c, &d);
    if (ok || d.req_to_token != NULL) {
        gm_case_free(&d);
    }
    free(bytes);
    return ok;
}

/* Everything a decoded input must satisfy. JSON is checked on cases of
 * moderate size (printing a million tokens per input would dominate). */
static void check_input(const uint8_t *data, size_t size) {
    gm_case c;
    fuzz_recipe recipe;
    gm_error err = {0};
    CHECK(fuzz_decode_recipe(data, size, &c, &recipe, &err));
    CHECK(gm_case_check(&c, &err));
    CHECK(fuzz_recipe_fits(&c, &err));
    if (case_elements(&c) <= 50000) {
        CHECK(json_round_trip(&c));
    }
    CHECK(encode_round_trip(&c, &recipe));
    CHECK(encode_round_trip(&c, NULL));
    gm_case_free(&c);
}

/* ---- the byte consumer and its mirror ------------------------------------ */

static void test_input_mirror(void) {
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 1);
    for (int round = 0; round < 200; round++) {
        uint64_t values[64], lo[64], hi[64];
        unsigned kinds[64];
        fuzz_output o;
        fuzz_output_init(&o);
        for (int k = 0; k < 64; k++) {
            kinds[k] = (unsigned)fuzz_rng_below(&rng, 3);
            values[k] = fuzz_rng_next(&rng) >> fuzz_rng_below(&rng, 64);
            lo[k] = fuzz_rng_next(&rng) >> fuzz_rng_below(&rng, 64);
            hi[k] = lo[k] + (fuzz_rng_next(&rng) >> fuzz_rng_below(&rng, 64));
            if (kinds[k] == 0) {
                values[k] &= 0xFF;
                fuzz_output_byte(&o, (uint8_t)values[k]);
            } else if (kinds[k] == 1) {
                fuzz_output_raw(&o, values[k], 8);
            } else {
                values[k] = hi[k] == lo[k] ? lo[k] : lo[k] + values[k] % (hi[k] - lo[k]);
                fuzz_output_range(&o, lo[k], hi[k], values[k]);
            }
        }
        uint8_t *bytes = NULL;
        size_t size = 0;
        gm_error err = {0};
        CHECK(fuzz_output_finish(&o, &bytes, &size, &err));
        fuzz_input in;
        fuzz_input_init(&in, bytes, size);
        for (int k = 0; k < 64; k++) {
            uint64_t got = kinds[k] == 0   ? fuzz_input_byte(&in)
                           : kinds[k] == 1 ? fuzz_input_raw(&in, 8)
                                           : fuzz_input_range(&in, lo[k], hi[k]);
            CHECK(got == values[k]);
        }
        CHECK_EQ_I64(fuzz_input_remaining(&in), 0);
        free(bytes);
        fuzz_output_free(&o);
    }
}

static void test_input_exhausted(void) {
    const uint8_t data[3] = {0x11, 0x22, 0x33};
    fuzz_input in;
    fuzz_input_init(&in, data, 3);
    CHECK_EQ_I64(fuzz_input_byte(&in), 0x11);
    CHECK_EQ_I64(fuzz_input_raw(&in, 4), 0x3322); /* stops where the cursors meet */
    CHECK_EQ_I64(fuzz_input_remaining(&in), 0);
    CHECK_EQ_I64(fuzz_input_byte(&in), 0);
    CHECK_EQ_I64(fuzz_input_raw(&in, 8), 0);
    fuzz_input_init(&in, data, 3);
    CHECK_EQ_I64(fuzz_input_raw_signed(&in, 1), 0x33);
    const uint8_t neg[2] = {0xFE, 0xFF};
    fuzz_input_init(&in, neg, 2);
    CHECK_EQ_I64(fuzz_input_raw_signed(&in, 2), -2); /* the trailing bytes, little-endian */
    fuzz_input_init(&in, NULL, 0);
    CHECK_EQ_I64(fuzz_input_byte(&in), 0);
    CHECK_EQ_I64(fuzz_input_range(&in, 5, 9), 5);
}

/* ---- the value codec -------------------------------------------------- */

static void test_value_codec(void) {
    const fuzz_value_ctx ctxs[3] = {
        {16, 100, 112, 9, 8, 7, 1008, 1025, 8},
        {1, 1, 1, 1, 0, 1, 1, 0, 0},
        {INT32_MAX, 8192, 8448, 124, 4097, 1, 1047552, 1048576, 65536},
    };
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 2);
    for (int d = 0; d < FUZZ_DOM_N; d++) {
        for (int x = 0; x < 3; x++) {
            for (int k = 0; k < 300; k++) {
                int64_t v = k < 60   ? fuzz_value_special((fuzz_domain)d, &ctxs[x], (unsigned)k)
                            : k < 80 ? k - 70
                                     : (int64_t)(fuzz_rng_next(&rng) >> fuzz_rng_below(&rng, 64));
                fuzz_value_code code = fuzz_value_encode((fuzz_domain)d, &ctxs[x], v);
                CHECK(fuzz_value_decode((fuzz_domain)d, &ctxs[x], code.sel, code.raw) == v);
                if (k < (int)fuzz_value_special_count((fuzz_domain)d)) {
                    CHECK(fuzz_value_raw_width(code.sel) == 0); /* a special costs one byte */
                }
            }
        }
    }
}

/* ---- the builder and the element functions agree ------------------------------ */

/* Element i of array `a` as the recipe's element functions give it. */
static int64_t generated(const fuzz_recipe *r, int a, size_t i) {
    switch (a) {
    case 0: return fuzz_recipe_seq(r, i);
    case 1: return fuzz_recipe_cpu(r, i);
    case 2: return fuzz_recipe_rpi(r, i);
    case 3: return fuzz_recipe_qlen(r, i);
    case 4: return fuzz_recipe_token(r, i / r->width, i % r->width);
    case 5: return fuzz_recipe_mapping(r, i);
    case 6: return fuzz_recipe_loc(r, i);
    default: return fuzz_recipe_init(r, (gm_buf_id)(a - 7), i);
    }
}

/* Inputs no longer than the header have no records: the decoded case is
 * the recipe's build, which must equal the element functions the encoder
 * evaluates, element for element. */
static void test_build_matches_elements(void) {
    static uint8_t buf[200];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 8);
    size_t compared = 0;
    for (int round = 0; round < 1500; round++) {
        size_t len = 20 + fuzz_rng_below(&rng, 40);
        for (size_t k = 0; k < len; k++) {
            buf[k] = (uint8_t)fuzz_rng_next(&rng);
        }
        gm_case c;
        fuzz_recipe r;
        gm_error err = {0};
        CHECK(fuzz_decode_recipe(buf, len, &c, &r, &err));
        for (int a = 0; a < FUZZ_ARRAY_COUNT; a++) {
            fuzz_array_view v;
            size_t misses = 0;
            for (size_t i = 0; fuzz_array_view_of(&c, (fuzz_array)a, &v) && i < v.len; i++) {
                misses += fuzz_array_get(&v, i) != generated(&r, a, i);
                compared++;
            }
            CHECK_EQ_I64(misses, 0);
        }
        gm_case_free(&c);
    }
    CHECK(compared > 50000);
}

/* ---- every byte string decodes --------------------------------------------- */

static void test_tiny_inputs(void) {
    check_input(NULL, 0);
    check_input((const uint8_t *)"", 0);
    for (unsigned b = 0; b < 256; b++) {
        uint8_t one = (uint8_t)b;
        check_input(&one, 1);
    }
    for (unsigned b = 0; b < 65536; b += 13) {
        uint8_t two[2] = {(uint8_t)b, (uint8_t)(b >> 8)};
        check_input(two, 2);
    }
}

/* Constant and patterned buffers around the header's length: every
 * selector at an extreme, raw payloads everywhere, huge RUN counts. */
static void test_adversarial_inputs(void) {
    static uint8_t buf[70000];
    const uint8_t fills[] = {0x00, 0xFF, 0xFE, 0xFC, 0xFB, 0xF0, 0xE0, 0xC0, 0xBF, 0x80, 0x7F, 0x01};
    const size_t lens[] = {1, 2, 3, 17, 59, 60, 61, 62, 64, 100, 255, 1000, 4096, 70000};
    for (size_t f = 0; f < sizeof fills; f++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            memset(buf, fills[f], lens[l]);
            check_input(buf, lens[l]);
        }
    }
    for (size_t k = 0; k < sizeof buf; k++) {
        buf[k] = (uint8_t)(k & 1 ? 0x00 : 0xFF); /* raw selectors with zero payloads */
    }
    check_input(buf, 5000);
    /* A valid header, then RUN records of every array asking for 2^32-1 values. */
    memset(buf, 0, 60);
    for (size_t k = 60; k < 4000; k++) {
        buf[k] = (uint8_t)((k & 1) ? 0xFF : (0xE0 | (k / 2 % 16)));
    }
    check_input(buf, 4000);
}

static void test_random_inputs(void) {
    static uint8_t buf[5000];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 3);
    for (int k = 0; k < 800; k++) {
        check_input(buf, random_input(&rng, buf, sizeof buf));
    }
}

/* ---- round trips of real cases ---------------------------------------------- */

static bool same_side(const gm_case *c, const gm_outputs *a, const gm_outputs *b) {
    gm_verdict v;
    gm_oracle_compare_buffers(c, a, b, GM_COMPARE_STRICT, &v);
    return v.status == GM_STATUS_MATCH && (a->error == NULL) == (b->error == NULL) &&
           (a->error == NULL || strcmp(a->error, b->error) == 0);
}

/* The canonical encoding decodes to a case on which both sides compute
 * exactly what they compute on the original. */
static bool canonical_same_outputs(harness_backend *cpu, const gm_case *c) {
    const fuzz_encode_options opt = {.canonical = true, .hint = NULL};
    uint8_t *bytes = NULL;
    size_t size = 0;
    gm_case d;
    gm_error err = {0};
    harness_run_result a, b;
    harness_run_result_init(&a);
    harness_run_result_init(&b);
    bool ok = fuzz_encode(c, &opt, &bytes, &size, &err) && fuzz_decode(bytes, size, &d, &err);
    if (ok) {
        ok = harness_run_case(cpu, c, GM_COMPARE_STRICT, &a, &err) &&
             harness_run_case(cpu, &d, GM_COMPARE_STRICT, &b, &err) &&
             same_side(c, &a.reference, &b.reference) && same_side(c, &a.fused, &b.fused);
        gm_case_free(&d);
    }
    harness_run_result_free(&a);
    harness_run_result_free(&b);
    free(bytes);
    return ok;
}

static void test_vectors_round_trip(void) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    harness_backend *cpu = NULL;
    CHECK(harness_paths_add(&files, vector_dir, &err));
    CHECK_EQ_I64(files.count, 250);
    CHECK(harness_backend_open(HARNESS_BACKEND_CPU, &cpu, &err));
    gm_limits lim;
    gm_limits_default(&lim);
    size_t exact = 0, canonical = 0;
    for (size_t i = 0; cpu != NULL && i < files.count; i++) {
        gm_doc doc;
        if (!gm_json_read_file(files.items[i], &lim, &doc, &err)) {
            CHECK(false);
            continue;
        }
        exact += encode_round_trip(&doc.c, NULL);
        canonical += canonical_same_outputs(cpu, &doc.c);
        gm_doc_free(&doc);
    }
    CHECK_EQ_I64(exact, files.count);
    CHECK_EQ_I64(canonical, files.count);
    if (cpu != NULL) {
        harness_backend_close(cpu);
    }
    harness_paths_free(&files);
}

/* ---- case-level mutations ------------------------------------------------------ */

static void test_mutations(void) {
    static uint8_t buf[2000];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 4);
    size_t changed[FUZZ_MUT_COUNT] = {0};
    for (int round = 0; round < 200; round++) {
        size_t len = random_input(&rng, buf, sizeof buf);
        for (int m = 0; m < FUZZ_MUT_COUNT; m++) {
            gm_case c, before;
            fuzz_recipe recipe;
            gm_error err = {0};
            CHECK(fuzz_decode_recipe(buf, len, &c, &recipe, &err));
            CHECK(gm_case_copy(&before, &c, &err));
            CHECK(fuzz_mutate_apply(&c, (fuzz_mutation)m, &rng, &err));
            CHECK(gm_case_check(&c, &err));
            CHECK(fuzz_recipe_fits(&c, &err));
            CHECK(encode_round_trip(&c, &recipe));
            changed[m] += !fuzz_encode_equal(&before, &c);
            gm_case_free(&before);
            gm_case_free(&c);
        }
    }
    for (int m = 0; m < FUZZ_MUT_COUNT; m++) {
        if (changed[m] < 20) {
            fprintf(stderr, "mutation %s changed only %zu of 200 cases\n",
                    fuzz_mutation_name((fuzz_mutation)m), changed[m]);
        }
        CHECK(changed[m] >= 20);
    }
}

/* The custom mutator's step: output within max_size, decodable, and the
 * input left alone when nothing fits. */
static void test_mutate_input(void) {
    static uint8_t buf[4096], copy[4096];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 5);
    size_t produced = 0;
    for (int round = 0; round < 500; round++) {
        size_t len = random_input(&rng, buf, 1000);
        size_t max_size = fuzz_rng_below(&rng, 2) ? sizeof buf : 64;
        memcpy(copy, buf, len);
        size_t n = fuzz_mutate_input(buf, len, max_size, &rng, 3);
        CHECK(n <= max_size);
        if (n == 0) {
            CHECK(memcmp(buf, copy, len) == 0);
            continue;
        }
        produced++;
        check_input(buf, n);
    }
    CHECK(produced >= 250);
}

/* ---- confinement -------------------------------------------------------------- */

/* A confined recipe (most of them) decodes to a case inside the fused
 * kernel's preconditions, records included; the others may break them. */
static void test_confine(void) {
    static uint8_t buf[2000];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 6);
    size_t confined = 0, out_of_bounds = 0;
    for (int round = 0; round < 2000; round++) {
        gm_case c;
        fuzz_recipe r;
        gm_error err = {0};
        CHECK(fuzz_decode_recipe(buf, random_input(&rng, buf, sizeof buf), &c, &r, &err));
        confined += r.confined;
        out_of_bounds += !fuzz_recipe_in_bounds(&c);
        CHECK(!r.confined || fuzz_recipe_in_bounds(&c));
        gm_case_free(&c);
    }
    CHECK(confined > 1000);
    CHECK(out_of_bounds > 100);
}

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

/* Unescapes the value of one `name="..."` line; returns its length. */
static size_t dict_value(const char *line, uint8_t *out, size_t cap) {
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
        size_t len = dict_value(line, record, sizeof record);
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
        } else if (strncmp(line, "set_rpilast_pad0=", 17) == 0) {
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

static void test_reachability(void) {
    static uint8_t buf[5000];
    static features f;
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 7);
    const size_t n = 15000;
    size_t small_bs = 0, in_bounds = 0, small_cases = 0, tall = 0, wide = 0, tiles = 0;
    for (size_t k = 0; k < n; k++) {
        gm_case c;
        gm_error err = {0};
        CHECK(fuzz_decode(buf, random_input(&rng, buf, sizeof buf), &c, &err));
        features_shape(&f, &c);
        features_batch(&f, &c);
        features_swa(&f, &c);
        small_bs += c.bs <= 64;
        in_bounds += fuzz_recipe_in_bounds(&c);
        small_cases += case_elements(&c) <= 20000;
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
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_fuzz_decode VECTOR_DIR DICT\n");
        return 2;
    }
    vector_dir = argv[1];
    dict_path = argv[2];
    GM_RUN(test_input_mirror);
    GM_RUN(test_input_exhausted);
    GM_RUN(test_value_codec);
    GM_RUN(test_build_matches_elements);
    GM_RUN(test_tiny_inputs);
    GM_RUN(test_adversarial_inputs);
    GM_RUN(test_random_inputs);
    GM_RUN(test_vectors_round_trip);
    GM_RUN(test_mutations);
    GM_RUN(test_mutate_input);
    GM_RUN(test_confine);
    GM_RUN(test_dictionary);
    GM_RUN(test_reachability);
    GM_TEST_END();
}
