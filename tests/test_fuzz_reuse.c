/* The decoder that keeps the last header's case (fuzz/fuzz_reuse.h) and the
 * undo log under it (fuzz_undo.h): for every input of a libFuzzer-like
 * stream (each input a small change of the one before, in the header or
 * the records, sometimes a case-level mutation, sometimes a new input) the
 * kept decoder gives exactly fuzz_decode's case, and the mutator that copies
 * arrays from the kept case gives the bytes it gives without.
 *
 * All randomness is seeded: the same build always checks the same inputs.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_decode.h"
#include "fuzz_encode.h"
#include "fuzz_header.h"
#include "fuzz_mutate.h"
#include "fuzz_reuse.h"
#include "fuzz_rng.h"
#include "fuzz_undo.h"
#include "gm_test.h"
#include "test_fuzz_inputs.h"

#define TEST_REUSE_CAP 6000

/* A case-level mutation, once copying from the kept case and once without:
 * the same bytes either way. */
static size_t test_reuse_mutate(fuzz_rng *rng, fuzz_reuse *u, uint8_t *buf, size_t len) {
    static uint8_t plain[TEST_REUSE_CAP];
    memcpy(plain, buf, len);
    fuzz_rng twin = *rng;
    fuzz_recipe_donor base;
    bool kept = fuzz_reuse_base(u, &base);
    size_t n = fuzz_mutate_input(buf, len, TEST_REUSE_CAP, rng, 3, kept ? &base : NULL);
    size_t m = fuzz_mutate_input(plain, len, TEST_REUSE_CAP, &twin, 3, NULL);
    CHECK(n == m && memcmp(buf, plain, n) == 0);
    return n > 0 ? n : len;
}

/* The next input of the stream, in place: mostly one to three bytes
 * changed (in the header's front part, its back part, or anywhere), else a
 * byte appended or removed, a case-level mutation, or a new input. */
static size_t test_reuse_next(fuzz_rng *rng, fuzz_reuse *u, uint8_t *buf, size_t len) {
    unsigned what = (unsigned)fuzz_rng_below(rng, 20);
    if (len == 0 || what == 0) {
        return test_fuzz_inputs_random(rng, buf, TEST_REUSE_CAP);
    }
    if (what == 1) {
        return test_reuse_mutate(rng, u, buf, len);
    }
    if (what == 2 && len < TEST_REUSE_CAP) {
        buf[len] = (uint8_t)fuzz_rng_next(rng);
        return len + 1;
    }
    if (what == 3) {
        return len - 1;
    }
    unsigned changes = 1 + (unsigned)fuzz_rng_below(rng, 3);
    for (unsigned k = 0; k < changes; k++) {
        size_t at = fuzz_rng_below(rng, len);
        if (what < 8 && len > FUZZ_HEADER_LEN) {
            at = FUZZ_HEADER_LEN + fuzz_rng_below(rng, len - FUZZ_HEADER_LEN); /* past the selectors */
        } else if (what < 12) {
            at = fuzz_rng_below(rng, len < FUZZ_HEADER_LEN ? len : FUZZ_HEADER_LEN);
        }
        buf[at] ^= (uint8_t)(1u << fuzz_rng_below(rng, 8));
    }
    return len;
}

static void test_reuse_stream(void) {
    static uint8_t buf[TEST_REUSE_CAP];
    fuzz_rng rng;
    fuzz_rng_seed(&rng, 23);
    fuzz_reuse u;
    fuzz_reuse_init(&u);
    size_t len = 0, same = 0;
    for (int round = 0; round < 4000; round++) {
        len = test_reuse_next(&rng, &u, buf, len);
        gm_case fresh;
        const gm_case *kept = NULL;
        gm_error err = {0};
        CHECK(fuzz_decode(buf, len, &fresh, &err));
        CHECK(fuzz_reuse_decode(&u, buf, len, &kept, &err));
        bool equal = fuzz_encode_equal(&fresh, kept) && fuzz_encode_equal(kept, &fresh);
        CHECK(equal);
        same += equal;
        fuzz_reuse_done(&u);
        gm_case_free(&fresh);
    }
    CHECK(same == 4000);
    CHECK(u.hits > 500);   /* the stream does reach the kept case ... */
    CHECK(u.builds > 500); /* ... and the partial builds */
    fuzz_reuse_free(&u);
}

/* A log past its room is spoiled: revert says so and writes nothing back. */
static void test_undo_spoiled(void) {
    static int64_t values[4];
    fuzz_array_view v = {.data = values, .storage64 = true, .len = 4, .row_len = 4, .col_page = 1};
    fuzz_array_view views[FUZZ_ARRAY_COUNT];
    for (int a = 0; a < FUZZ_ARRAY_COUNT; a++) {
        views[a] = v;
    }
    fuzz_undo u;
    fuzz_undo_init(&u);
    fuzz_undo_note(&u, FUZZ_ARRAY_SEQ_LENS, &v, 1);
    values[1] = 7;
    fuzz_undo_note(&u, FUZZ_ARRAY_SEQ_LENS, &v, 1);
    values[1] = 8;
    CHECK(fuzz_undo_revert(&u, views));
    CHECK(values[1] == 0); /* the first write's old value wins */
    for (size_t k = 0; k <= FUZZ_UNDO_MAX; k++) {
        fuzz_undo_note(&u, FUZZ_ARRAY_SEQ_LENS, &v, 2);
    }
    values[2] = 5;
    CHECK(!fuzz_undo_revert(&u, views));
    CHECK(values[2] == 5);
    CHECK(fuzz_undo_revert(&u, views)); /* emptied: ready again */
    fuzz_undo_free(&u);
}

int main(void) {
    GM_RUN(test_reuse_stream);
    GM_RUN(test_undo_spoiled);
    GM_TEST_END();
}
