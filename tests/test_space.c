/* The one description of the input space (core/gm_space.h): its classes
 * are the ones issue 23 names, the fuzz decoder's specials are exactly its
 * classes, and the dictionary agrees with it.
 *
 *   test_space DICT
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_array.h"
#include "fuzz_value.h"
#include "gm_space.h"
#include "gm_test.h"
#include "test_fuzz_inputs.h"

static const char *dict_path;

/* A case's sizes as the decoder and the generator see them. */
static gm_space_ctx ctx_typical(void) {
    return (gm_space_ctx){.page_size = 16, .max_context_len = 100, .width = 103, .pool = 5,
                          .bs = 7, .max_num_pages = 7, .full_size = 515, .mapping_len = 532,
                          .out_len = 9};
}

static int64_t min_class(gm_space_input in, const gm_space_ctx *x) {
    int64_t m = INT64_MAX;
    for (unsigned k = 0; k < gm_space_count(in); k++) {
        int64_t v = gm_space_value(in, x, k);
        m = v < m ? v : m;
    }
    return m;
}

static bool has_past_int32(gm_space_input in, const gm_space_ctx *x) {
    for (unsigned k = 0; k < gm_space_count(in); k++) {
        int64_t v = gm_space_value(in, x, k);
        if (v > INT32_MAX || v < INT32_MIN) {
            return true;
        }
    }
    return false;
}

/* Every table fits the decoder's selectors; names are there and unique. */
static void test_tables(void) {
    for (int in = 0; in < GM_SPACE_N; in++) {
        unsigned n = gm_space_count((gm_space_input)in);
        CHECK(n >= 8 && n <= GM_SPACE_CLASSES_MAX);
        CHECK(gm_space_name((gm_space_input)in, n) == NULL);
        for (unsigned a = 0; a < n; a++) {
            const char *name = gm_space_name((gm_space_input)in, a);
            CHECK(name != NULL && name[0] != '\0');
            for (unsigned b = a + 1; name != NULL && b < n; b++) {
                CHECK(strcmp(name, gm_space_name((gm_space_input)in, b)) != 0);
            }
        }
    }
}

/* The classes issue 23 asks for: negatives below -1 in every signed
 * input, values past int32 in the int64 ones, block and tile edges, page
 * sizes 1 to 256 with non-powers of two, and the row patterns. */
static void test_issue_classes(void) {
    gm_space_ctx x = ctx_typical();
    static const gm_space_input signed_inputs[] = {GM_SPACE_SEQ,   GM_SPACE_TOKEN, GM_SPACE_ROW,
                                                   GM_SPACE_MAP,   GM_SPACE_LOC,   GM_SPACE_COUNT,
                                                   GM_SPACE_FILL};
    for (size_t k = 0; k < sizeof signed_inputs / sizeof signed_inputs[0]; k++) {
        CHECK(min_class(signed_inputs[k], &x) < -1);
        CHECK(gm_space_has(signed_inputs[k], &x, -2));
    }
    CHECK(gm_space_has(GM_SPACE_LOC, &x, -3) && gm_space_has(GM_SPACE_TOKEN, &x, -3));
    CHECK(gm_space_has(GM_SPACE_LOC, &x, -x.mapping_len - 1));
    static const gm_space_input wide_inputs[] = {GM_SPACE_SEQ, GM_SPACE_ROW, GM_SPACE_MAP,
                                                 GM_SPACE_LOC};
    for (size_t k = 0; k < sizeof wide_inputs / sizeof wide_inputs[0]; k++) {
        CHECK(has_past_int32(wide_inputs[k], &x));
    }
    static const int32_t edges[] = {32, 256, 512, 1024, 2048, 4096};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        for (int64_t d = -1; d <= 1; d++) {
            bool found = false;
            for (unsigned k = 0; k < 3 * gm_space_edge_count; k++) {
                found = found || gm_space_edge_size(k) == edges[e] + d;
            }
            CHECK(found);
        }
    }
    bool one = false, top = false, odd = false;
    for (size_t k = 0; k < gm_space_page_size_count; k++) {
        int32_t p = gm_space_page_sizes[k];
        CHECK(p >= 1 && p <= 256);
        one = one || p == 1;
        top = top || p == 256;
        odd = odd || (p > 2 && (p & (p - 1)) != 0);
    }
    CHECK(one && top && odd);
    /* a running sum past int32 over any bs >= 2; rows at seq + offset <= 0 */
    for (int64_t bs = 2; bs <= 65536; bs *= 4) {
        x.bs = bs;
        int64_t row = gm_space_row_len(GM_SPACE_ROWS_SUM_WRAP, &x, 0, 0);
        CHECK(row > 0 && row <= INT32_MAX && row * bs > INT32_MAX);
    }
    x = ctx_typical();
    bool zero = false, below = false;
    for (uint64_t draw = 0; draw < 64; draw++) {
        int64_t len = gm_space_row_len(GM_SPACE_ROWS_NONPOS, &x, 3, draw);
        zero = zero || len + 3 == 0;
        below = below || len + 3 < 0;
    }
    CHECK(zero && below);
    CHECK_EQ_I64(gm_space_row_len(GM_SPACE_ROWS_EMPTY, &x, 0, 5), 0);
    CHECK_EQ_I64(gm_space_row_len(GM_SPACE_ROWS_FULL, &x, 0, 5), x.max_context_len);
}

/* The decoder's special selector 0xC0 + k is class k of its domain's table. */
static void test_decoder_specials(void) {
    gm_space_ctx contexts[2] = {ctx_typical(), {0}};
    contexts[1] = (gm_space_ctx){.page_size = 3, .max_context_len = 4097, .width = 4100,
                                 .pool = 2, .bs = 1, .max_num_pages = 1366, .full_size = 8200,
                                 .mapping_len = 8204, .out_len = 513};
    for (int c = 0; c < 2; c++) {
        for (int d = 0; d < FUZZ_DOM_N; d++) {
            unsigned n = gm_space_count((gm_space_input)d);
            for (unsigned s = FUZZ_VALUE_SMALL_END; s < FUZZ_VALUE_RAW_BEGIN; s++) {
                unsigned k = (s - FUZZ_VALUE_SMALL_END) % n;
                CHECK_EQ_I64(fuzz_value_decode((fuzz_domain)d, &contexts[c], (uint8_t)s, 0),
                             gm_space_value((gm_space_input)d, &contexts[c], k));
            }
        }
    }
}

/* A whole case of `bs` rows, row width `width`, in `mode`. */
static void corner_case(gm_case *c, gm_mode mode, size_t width, size_t bs) {
    gm_case_init(c);
    c->mode = mode;
    c->page_size = 16;
    c->max_context_len = (int32_t)width;
    c->num_draft_tokens = 3;
    c->speculative_step_id = 1;
    c->pool = 4;
    c->width = width;
    c->bs = bs;
    c->req_to_token = calloc(c->pool * c->width, sizeof(int32_t));
    c->req_pool_indices = calloc(bs, sizeof(int64_t));
    c->seq_lens = calloc(bs, sizeof(int64_t));
    c->qlens = calloc(bs, sizeof(int32_t));
}

/* The corners are what they say, for every mode and row width. */
static void test_corners(void) {
    const size_t widths[] = {1, 2, 3, 4, 6, 7, 64, 100, 101, 4096};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        for (int m = 0; m < GM_MODE_COUNT; m++) {
            gm_case c;
            corner_case(&c, (gm_mode)m, widths[w], 3);
            CHECK(gm_space_corner_apply(GM_SPACE_CORNER_WRAPPED_ROWS, &c, w));
            int64_t offset = gm_case_seqlen_offset(&c);
            CHECK(c.mode != GM_MODE_DRAFT_DECODE && c.seq_lens_cpu != NULL);
            CHECK(c.has_max_seq_pages && (size_t)c.max_seq_pages == gm_case_max_num_pages(&c));
            for (size_t i = 0; i < c.bs; i++) {
                int64_t r = c.req_pool_indices[i];
                uint64_t flat = (uint64_t)r * (uint64_t)c.width; /* the kernel's, wrapping */
                CHECK(r < 0 || r >= (int64_t)c.pool);
                CHECK(c.width == 1 || flat <= 1);
                CHECK_EQ_I64(c.seq_lens_cpu[i] + offset, 0);
                CHECK(c.seq_lens[i] + offset >= 1 && c.seq_lens[i] + offset <= c.max_context_len);
            }
            gm_case_free(&c);

            corner_case(&c, (gm_mode)m, widths[w], 2);
            CHECK(gm_space_corner_apply(GM_SPACE_CORNER_LENS_BELOW_INT64, &c, w));
            CHECK_EQ_I64(c.mode, GM_MODE_DRAFT_DECODE);
            CHECK(gm_case_seqlen_offset(&c) <= -c.page_size);
            CHECK(c.seq_lens[0] == INT64_MIN && c.seq_lens[1] == INT64_MIN);
            gm_case_free(&c);
        }
    }
    CHECK(strcmp(gm_space_corner_name(GM_SPACE_CORNER_WRAPPED_ROWS), "wrapped_rows") == 0);
    CHECK(gm_space_corner_name(GM_SPACE_CORNER_N) == NULL);
}

/* A record word (set_*, fill_*): its last byte selects a class of the
 * addressed array's domain directly (no wrap past the count), and its
 * name ends with that class's name. */
static void dict_record_word(const char *line, const uint8_t *w, size_t len) {
    fuzz_domain d = fuzz_array_domain((fuzz_array)(w[0] & 15));
    uint8_t sel = w[len - 1];
    CHECK(sel >= FUZZ_VALUE_SMALL_END && sel < FUZZ_VALUE_RAW_BEGIN);
    unsigned k = (unsigned)(sel - FUZZ_VALUE_SMALL_END);
    const char *name = gm_space_name((gm_space_input)d, k);
    size_t key = strcspn(line, "=");
    char suffix[80];
    snprintf(suffix, sizeof suffix, "_%s", name != NULL ? name : "(past the table)");
    size_t sl = strlen(suffix);
    bool agrees = name != NULL && key > sl && strncmp(line + key - sl, suffix, sl) == 0;
    if (!agrees) {
        fprintf(stderr, "dictionary word disagrees with core/gm_space.c (%s class %u is %s): %s",
                gm_space_input_name((gm_space_input)d), k, suffix + 1, line);
    }
    CHECK(agrees);
}

/* A raw word: a little-endian value that some class, page size or edge
 * size of the input space has, whatever the case's sizes. */
static void dict_raw_word(const char *line, const uint8_t *w, size_t len) {
    uint64_t u = 0;
    for (size_t i = 0; i < len; i++) {
        u |= (uint64_t)w[i] << (8 * i);
    }
    if (len < 8 && (u >> (8 * len - 1)) & 1) {
        u |= ~(uint64_t)0 << (8 * len);
    }
    int64_t v;
    memcpy(&v, &u, sizeof v);
    gm_space_ctx a = ctx_typical(), b = {0};
    bool known = false;
    for (int in = 0; in < GM_SPACE_N; in++) {
        known = known || (gm_space_has((gm_space_input)in, &a, v) &&
                          gm_space_has((gm_space_input)in, &b, v));
    }
    for (size_t k = 0; k < gm_space_page_size_count; k++) {
        known = known || gm_space_page_sizes[k] == v;
    }
    for (unsigned k = 0; k < 3 * gm_space_edge_count; k++) {
        known = known || gm_space_edge_size(k) == v;
    }
    if (!known) {
        fprintf(stderr, "dictionary raw word is no value of core/gm_space.c: %s", line);
    }
    CHECK(known);
}

static void test_dictionary(void) {
    FILE *f = fopen(dict_path, "r");
    CHECK(f != NULL);
    char line[512];
    size_t records = 0, raws = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        uint8_t w[64];
        bool record = strncmp(line, "set_", 4) == 0 || strncmp(line, "fill_", 5) == 0;
        bool raw = strncmp(line, "raw_", 4) == 0;
        size_t len = record || raw ? test_fuzz_inputs_dict_value(line, w, sizeof w) : 0;
        if (len == 0) {
            continue;
        }
        if (record) {
            dict_record_word(line, w, len);
            records++;
        } else {
            dict_raw_word(line, w, len);
            raws++;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    CHECK(records >= 30 && raws >= 10);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_space DICT\n");
        return 2;
    }
    dict_path = argv[1];
    GM_RUN(test_tables);
    GM_RUN(test_issue_classes);
    GM_RUN(test_decoder_specials);
    GM_RUN(test_corners);
    GM_RUN(test_dictionary);
    GM_TEST_END();
}
