/* fuzz_jsonscan: a libFuzzer target of the triage scanner (gm_jsonscan).
 *
 * Oracle: the object scan and the value check agree (an object the scan
 * accepts is a value the check accepts; a text that starts with '{' and
 * passes the check passes the scan, unless a wanted key is given twice);
 * every span found lies inside the text and is itself one JSON value. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What triage's reproducer reader asks for (repro_fields.c), and one
 * key of each shape. */
static const char *const fuzz_jsonscan_keys[] = {
    "format", "signature", "found", "first_difference", "case", "case.req_pool_indices", "", "a.b",
};
#define FUZZ_JSONSCAN_KEYS (sizeof fuzz_jsonscan_keys / sizeof fuzz_jsonscan_keys[0])

static void fuzz_jsonscan_fail(const char *what) {
    fprintf(stderr, "fuzz_jsonscan: %s\n", what);
    abort();
}

static bool fuzz_jsonscan_starts_object(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
        i++;
    }
    return i < n && s[i] == '{';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    gm_jsonscan_span spans[FUZZ_JSONSCAN_KEYS];
    gm_error err = {0};
    bool object =
        gm_jsonscan_object(text, size, fuzz_jsonscan_keys, FUZZ_JSONSCAN_KEYS, spans, &err);
    size_t at;
    const char *expected;
    bool value = gm_jsonscan_value_check(text, size, &at, &expected);
    bool twice = !object && strstr(err.msg, "given twice") != NULL;
    if (object && !value) {
        fuzz_jsonscan_fail("the object scan accepts a text the value check rejects");
    }
    if (!object && !twice && value && fuzz_jsonscan_starts_object(text, size)) {
        fuzz_jsonscan_fail("the value check accepts an object the object scan rejects");
    }
    if (!value && (at > size || expected == NULL)) {
        fuzz_jsonscan_fail("a rejection past the end or without a reason");
    }
    for (size_t k = 0; object && k < FUZZ_JSONSCAN_KEYS; k++) {
        const gm_jsonscan_span *s = &spans[k];
        if (s->start == NULL) {
            continue;
        }
        if (s->start < text || s->len > size || s->start + s->len > text + size) {
            fuzz_jsonscan_fail("a span outside the text");
        }
        if (!gm_jsonscan_value_check(s->start, s->len, &at, &expected)) {
            fuzz_jsonscan_fail("a span that is not one JSON value");
        }
    }
    return 0;
}
