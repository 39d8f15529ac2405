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

#include "gm_json.h"
#include "gm_jsonscan.h"
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

int main(int argc, char **argv) {
    if (argc < 2 || !read_case_text(argv[1])) {
        fprintf(stderr, "usage: test_readers CASE.json (a valid case)\n");
        return 1;
    }
    GM_RUN(test_whitespace);
    GM_RUN(test_strings_and_tail);
    GM_RUN(test_message);
    free(case_text);
    GM_TEST_END();
}
