/* fuzz_json_differential: the triage scanner and the full document reader
 * accept and reject the same JSON (issue 11: one acceptance rule for every
 * reader).
 *
 * The full reader (gm_json_parse) also rejects valid JSON for what it
 * says (a missing field, a bad value); only its JSON verdicts are compared:
 * a text is JSON to it unless it fails with a syntax message ("JSON syntax
 * error", "unexpected text after the JSON document") or, for a text that
 * is valid JSON but no object, "the document must be a JSON object". The
 * scanner's verdict is gm_jsonscan_object's, with no wanted keys.
 *   - the scanner accepts  => the reader reports no syntax error;
 *   - the scanner rejects  => the reader fails, and with a syntax message
 *                             (or "must be a JSON object" for a non-object);
 *   - the reader accepts   => the scanner accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "gm_jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_json_differential_syntax(const char *msg) {
    return strstr(msg, "fuzz: JSON syntax error") == msg ||
           strstr(msg, "fuzz: unexpected text after the JSON document") == msg;
}

static bool fuzz_json_differential_not_object(const char *msg) {
    return strstr(msg, "fuzz: the document must be a JSON object") == msg;
}

static void fuzz_json_differential_fail(const char *what, const char *msg) {
    fprintf(stderr, "fuzz_json_differential: %s (the reader: %s)\n", what, msg);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    gm_limits lim;
    gm_limits_default(&lim);
    lim.max_elements = (size_t)1 << 20;
    gm_doc doc;
    gm_error read_err = {0}, scan_err = {0};
    bool read = gm_json_parse(text, size, "fuzz", &lim, &doc, &read_err);
    gm_doc_free(&doc);
    gm_jsonscan_span unused;
    bool scanned = gm_jsonscan_object(text, size, NULL, 0, &unused, &scan_err);
    size_t at;
    const char *expected;
    bool json = gm_jsonscan_value_check(text, size, &at, &expected);
    if (read && !scanned) {
        fuzz_json_differential_fail("the reader accepts what the scanner rejects", "ok");
    }
    if (scanned && !read && fuzz_json_differential_syntax(read_err.msg)) {
        fuzz_json_differential_fail("the scanner accepts what the reader calls a syntax error",
                                    read_err.msg);
    }
    if (!scanned && !read && !fuzz_json_differential_syntax(read_err.msg) &&
        !(json && fuzz_json_differential_not_object(read_err.msg))) {
        fuzz_json_differential_fail("the scanner rejects the JSON, the reader for another reason",
                                    read_err.msg);
    }
    return 0;
}
