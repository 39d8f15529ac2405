/* test_readers: one JSON acceptance rule for every reader (issue 11, item 8).
 *
 * Each variant of a valid case must be accepted by both the full reader
 * (gm_json_parse) and the triage scanner (gm_jsonscan_object), or rejected
 * by both, as the variant says. cJSON alone took NUL, \f, \v and any other
 * byte <= 32 for whitespace; the scanner does not (RFC 8259). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"
#include "gm_json.h"
#include "gm_jsonscan.h"
#include "repro.h"
#include "gm_test.h"

static char *case_text;
static size_t case_len;

static bool read_case_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    case_text = malloc(1 << 16);
    case_len = case_text != NULL ? fread(case_text, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    return case_len > 0;
}

/* Whether the full reader and the scanner accept text[0..len). */
static void accepted_by(const char *text, size_t len, bool *reader, bool *scanner) {
    gm_doc doc;
    gm_error err = {0};
    *reader = gm_json_parse(text, len, "t.json", NULL, &doc, &err);
    gm_doc_free(&doc);
    gm_jsonscan_span span;
    const char *keys[] = {"format"};
    *scanner = gm_jsonscan_object(text, len, keys, 1, &span, &err);
}

/* The case text with `len` bytes at `at` replaced by `with[0..n)`. */
static void check_variant(const char *what, size_t at, size_t len, const char *with, size_t n,
                          bool valid) {
    char *text = malloc(case_len + n + 1);
    memcpy(text, case_text, at);
    memcpy(text + at, with, n);
    memcpy(text + at + n, case_text + at + len, case_len - at - len);
    size_t total = case_len - len + n;
    bool reader, scanner;
    accepted_by(text, total, &reader, &scanner);
    if (reader != valid || scanner != valid) {
        fprintf(stderr, "%s: reader %s, scanner %s, expected %s\n", what,
                reader ? "accepts" : "rejects", scanner ? "accepts" : "rejects",
                valid ? "accepted" : "rejected");
    }
    CHECK(reader == valid);
    CHECK(scanner == valid);
    free(text);
}

static size_t offset_of(const char *needle) {
    const char *p = strstr(case_text, needle);
    return p != NULL ? (size_t)(p - case_text) : 0;
}

static void test_whitespace(void) {
    check_variant("as is", 0, 0, "", 0, true);
    check_variant("space, tab, CR, LF around", 0, 0, " \t\r\n", 4, true);
    check_variant("NUL at the end", case_len, 0, "\0", 1, false);
    check_variant("NUL before the document", 0, 0, "\0", 1, false);
    check_variant("NUL between tokens", offset_of("\"mode\"") - 1, 1, "\0", 1, false);
    check_variant("form feed between tokens", offset_of("\"mode\"") - 1, 1, "\f", 1, false);
    check_variant("vertical tab at the end", case_len, 0, "\v", 1, false);
    check_variant("0x01 at the end", case_len, 0, "\x01", 1, false);
}

static void test_strings_and_tail(void) {
    size_t name = offset_of("decode-basic");
    check_variant("NUL inside a string", name, 1, "\0", 1, false);
    check_variant("raw ESC inside a string", name, 1, "\x1b", 1, false);
    check_variant("escaped ESC inside a string", name, 1, "\\u001b", 6, true);
    check_variant("a surrogate pair", name, 1, "\\ud83d\\ude00", 12, true);
    check_variant("a lone high surrogate", name, 1, "\\ud83dx", 7, false);
    check_variant("a high surrogate, then no low one", name, 1, "\\ud83d\\u0041", 12, false);
    check_variant("a lone low surrogate", name, 1, "\\ude00", 6, false);
    check_variant("text after the document", case_len, 0, "x", 1, false);
    check_variant("a second document", case_len, 0, "{}", 2, false);
    check_variant("a comment", 0, 0, "/* c */", 7, false);
}

static void test_message(void) {
    const char text[] = "{\"format\": \"gmfuzz-case-v1\"}\0";
    gm_doc doc;
    gm_error err = {0};
    CHECK(!gm_json_parse(text, sizeof text - 1, "t.json", NULL, &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: unexpected text after the JSON document at byte 28");
    CHECK_STR_CONTAINS(err.msg, "near \"\\x00\"");
}

/* The in-place reader on a bigger case: 2^20 integers in 16 rows of 2^16,
 * all zeros but a marker in each row, read back exactly. */
static void test_big_case(void) {
    enum { ROWS = 16, WIDTH = 1 << 16 };
    size_t cap = (size_t)ROWS * WIDTH * 2 + 4096, at = 0;
    char *text = malloc(cap);
    at += (size_t)snprintf(text, cap, "{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", "
                                      "\"page_size\": 1, \"max_context_len\": 4, \"req_to_token\": [");
    for (int r = 0; r < ROWS; r++) {
        text[at++] = r > 0 ? ',' : ' ';
        text[at++] = '[';
        for (int i = 0; i < WIDTH; i++) {
            at += (size_t)snprintf(text + at, cap - at, "%s%d", i > 0 ? "," : "",
                                   i == r ? r + 100 : 0);
        }
        text[at++] = ']';
    }
    at += (size_t)snprintf(text + at, cap - at,
                           "], \"req_pool_indices\": [3], \"seq_lens\": [2]}");
    gm_doc doc;
    gm_error err = {0};
    bool ok = gm_json_parse(text, at, "big.json", NULL, &doc, &err);
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
    }
    CHECK(ok);
    if (ok) {
        CHECK_EQ_I64(doc.c.pool, ROWS);
        CHECK_EQ_I64(doc.c.width, WIDTH);
        size_t nonzero = 0;
        for (size_t k = 0; k < (size_t)ROWS * WIDTH; k++) {
            nonzero += doc.c.req_to_token[k] != 0;
        }
        CHECK_EQ_I64(nonzero, ROWS);
        CHECK_EQ_I64(doc.c.req_to_token[5 * WIDTH + 5], 105);
        CHECK_EQ_I64(doc.c.req_pool_indices[0], 3);
    }
    gm_doc_free(&doc);
    free(text);
}

static bool parse(const char *text, gm_doc *doc, gm_error *err) {
    return gm_json_parse(text, strlen(text), "t.json", NULL, doc, err);
}

#define CASE_REST                                                                          \
    "\"mode\": \"decode\", \"page_size\": 1, \"max_context_len\": 1, "                         \
    "\"req_to_token\": [[0]], \"req_pool_indices\": [0], \"seq_lens\": [1]"

/* Keys and strings are compared and kept decoded, as cJSON did. */
static void test_escapes(void) {
    gm_doc doc;
    gm_error err = {0};
    CHECK(parse("{\"form\\u0061t\": \"gmfuzz-case-v1\", " CASE_REST "}", &doc, &err));
    gm_doc_free(&doc);
    CHECK(!parse("{\"form\\u0061t\": \"gmfuzz-case-v1\", \"format\": \"gmfuzz-case-v1\", "
                 CASE_REST "}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: format: the key appears more than once");
    CHECK(parse("{\"format\": \"gmfuzz-case-v1\", \"name\": \"a\\n\\u00e9\\ud83d\\ude00\\\"\", "
                CASE_REST "}", &doc, &err));
    CHECK(doc.c.name != NULL && strcmp(doc.c.name, "a\n\xc3\xa9\xf0\x9f\x98\x80\"") == 0);
    gm_doc_free(&doc);
    CHECK(parse("{\"format\": \"gmfuzz-case-v1\", " CASE_REST ", \"page_size\": 1e0}", &doc, &err) ==
          false);
    CHECK_STR_CONTAINS(err.msg, "page_size: the key appears more than once");
}

/* Numbers keep gm_jsonint's rules: integral values in any notation within
 * 2^53, decimal strings beyond. */
static void test_numbers(void) {
    gm_doc doc;
    gm_error err = {0};
    CHECK(parse("{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", \"page_size\": 2e0, "
                "\"max_context_len\": 1.0, \"req_to_token\": [[0]], \"req_pool_indices\": [\"0\"], "
                "\"seq_lens\": [-0]}", &doc, &err));
    CHECK_EQ_I64(doc.c.page_size, 2);
    gm_doc_free(&doc);
    CHECK(!parse("{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", \"page_size\": 1, "
                 "\"max_context_len\": 1, \"req_to_token\": [[0, 1.5]], \"req_pool_indices\": [0], "
                 "\"seq_lens\": [1]}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "t.json: req_to_token[0][1]: 1.5 is not an integer");
    CHECK(!parse("{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", \"page_size\": 1, "
                 "\"max_context_len\": 1, \"req_to_token\": [[18014398509481985]], "
                 "\"req_pool_indices\": [0], \"seq_lens\": [1]}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "is beyond 2^53 and not exact as a JSON number");
    CHECK(!parse("{\"format\": \"gmfuzz-case-v1\", \"mode\": \"decode\", \"page_size\": 1, "
                 "\"max_context_len\": 1, \"req_to_token\": [[2147483648]], "
                 "\"req_pool_indices\": [0], \"seq_lens\": [1]}", &doc, &err));
    CHECK_STR_CONTAINS(err.msg, "req_to_token[0][0]: 2147483648 is out of range for int32");
}

/* The readers of a run folder's files follow the same rule: known.json,
 * campaign.json and stats.jsonl reject NUL, \f and text after the value. */
static bool write_file(const char *path, const char *text, size_t len) {
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL && fwrite(text, 1, len, f) == len;
    return f != NULL && fclose(f) == 0 && ok;
}

static bool read_campaign(const char *path) {
    repro_rundir_campaign c;
    memset(&c, 0, sizeof c);
    gm_error err = {0};
    bool ok = repro_rundir_campaign_read(path, &c, &err);
    repro_rundir_campaign_free(&c);
    return ok;
}

static bool read_baseline(const char *path) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    bool ok = triage_baseline_load(path, &b, &err);
    triage_baseline_free(b);
    return ok;
}

static bool read_stats(const char *path) {
    repro_rundir_sample *samples = NULL;
    size_t n = 0;
    gm_error err = {0};
    bool ok = repro_rundir_stats_read(path, &samples, &n, &err);
    free(samples);
    return ok && n == 1;
}

static void check_file_reader(const char *what, bool (*read)(const char *), const char *valid,
                              const char *tail, size_t tail_len, bool accepted) {
    char text[1024];
    size_t n = strlen(valid);
    memcpy(text, valid, n);
    memcpy(text + n, tail, tail_len);
    CHECK(write_file("test_readers.json", text, n + tail_len));
    bool ok = read("test_readers.json");
    if (ok != accepted) {
        fprintf(stderr, "%s: %s, expected %s\n", what, ok ? "accepted" : "rejected",
                accepted ? "accepted" : "rejected");
    }
    CHECK(ok == accepted);
}

static void test_file_readers(void) {
    static const char campaign[] = "{\"format\": \"gmfuzz-campaign-v1\", \"exit_code\": 0}";
    static const char known[] = "{\"format\": \"gmfuzz-known-v1\", \"classes\": [], "
                                "\"signatures\": []}";
    static const char sample[] = "{\"t\": 1.0, \"execs\": 5, \"exec_per_sec\": 5, "
                                 "\"coverage\": 1, \"corpus\": 1, \"signatures\": 0, "
                                 "\"failures\": 0}";
    static const struct {
        const char *what, *tail;
        size_t len;
        bool accepted;
    } tails[] = {
        {"as is", "\n", 1, true},         {"NUL at the end", "\0\n", 2, false},
        {"form feed at the end", "\f\n", 2, false}, {"text after it", " x\n", 3, false},
        {"a lone surrogate after it", " \"\\udc00\"\n", 10, false},
    };
    for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
        check_file_reader(tails[k].what, read_campaign, campaign, tails[k].tail, tails[k].len,
                          tails[k].accepted);
        check_file_reader(tails[k].what, read_baseline, known, tails[k].tail, tails[k].len,
                          tails[k].accepted);
        check_file_reader(tails[k].what, read_stats, sample, tails[k].tail, tails[k].len,
                          tails[k].accepted);
    }
    remove("test_readers.json");
}

int main(int argc, char **argv) {
    if (argc < 2 || !read_case_text(argv[1])) {
        fprintf(stderr, "usage: test_readers CASE.json (a valid case)\n");
        return 1;
    }
    GM_RUN(test_whitespace);
    GM_RUN(test_strings_and_tail);
    GM_RUN(test_message);
    GM_RUN(test_big_case);
    GM_RUN(test_escapes);
    GM_RUN(test_numbers);
    GM_RUN(test_file_readers);
    free(case_text);
    GM_TEST_END();
}
