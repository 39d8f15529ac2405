/* The fuzz input codec (fuzz/): every byte string decodes to a valid case,
 * decode(encode(c)) == c, the case-level mutations keep cases valid and
 * encodable (test_fuzz_reach.c: the dictionary and the regions the
 * decoder must reach).
 *
 *   test_fuzz_decode VECTOR_DIR
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

static const char *vector_dir;

/* ---- helpers ------------------------------------------------------------ */

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
    if (test_fuzz_inputs_elements(&c) <= 50000) {
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
        check_input(buf, test_fuzz_inputs_random(&rng, buf, sizeof buf));
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
        size_t len = test_fuzz_inputs_random(&rng, buf, sizeof buf);
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
        size_t len = test_fuzz_inputs_random(&rng, buf, 1000);
        size_t max_size = fuzz_rng_below(&rng, 2) ? sizeof buf : 64;
        memcpy(copy, buf, len);
        size_t n = fuzz_mutate_input(buf, len, max_size, &rng, 3, NULL);
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
        CHECK(fuzz_decode_recipe(buf, test_fuzz_inputs_random(&rng, buf, sizeof buf), &c, &r, &err));
        confined += r.confined;
        out_of_bounds += !fuzz_recipe_in_bounds(&c);
        CHECK(!r.confined || fuzz_recipe_in_bounds(&c));
        gm_case_free(&c);
    }
    CHECK(confined > 1000);
    CHECK(out_of_bounds > 100);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_fuzz_decode VECTOR_DIR\n");
        return 2;
    }
    vector_dir = argv[1];
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
    GM_TEST_END();
}
