/* gm_test: the few macros the unit tests need. A test program is a list of
 * `static void test_x(void)` functions run from main() with GM_RUN; each
 * CHECK that fails prints file:line and what it saw, and the program exits
 * non-zero at the end. Exit code 77 (GM_TEST_SKIP) tells ctest "skipped". */
#ifndef GM_TEST_H
#define GM_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GM_TEST_SKIP 77

static int gm_test_failures;
static int gm_test_checks;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        gm_test_checks++;                                                                  \
        if (!(cond)) {                                                                     \
            gm_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                                 \
    do {                                                                                   \
        int64_t gm_a_ = (int64_t)(a), gm_b_ = (int64_t)(b);                                \
        gm_test_checks++;                                                                  \
        if (gm_a_ != gm_b_) {                                                              \
            gm_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRId64 " != %" PRId64 "\n",         \
                    __FILE__, __LINE__, #a, #b, gm_a_, gm_b_);                             \
        }                                                                                  \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                               \
    do {                                                                                   \
        const char *gm_h_ = (haystack), *gm_n_ = (needle);                                 \
        gm_test_checks++;                                                                  \
        if (gm_h_ == NULL || strstr(gm_h_, gm_n_) == NULL) {                               \
            gm_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__,  \
                    gm_h_ ? gm_h_ : "(null)", gm_n_);                                      \
        }                                                                                  \
    } while (0)

#define GM_RUN(fn)                                                                         \
    do {                                                                                   \
        int gm_before_ = gm_test_failures;                                                 \
        fn();                                                                              \
        fprintf(stderr, "%s %s\n", gm_test_failures == gm_before_ ? "ok  " : "FAIL", #fn); \
    } while (0)

/* Ends main(): a test program that checked nothing is itself a failure. */
#define GM_TEST_END()                                                                      \
    do {                                                                                   \
        fprintf(stderr, "%d checks, %d failed\n", gm_test_checks, gm_test_failures);       \
        return (gm_test_failures == 0 && gm_test_checks > 0) ? 0 : 1;                      \
    } while (0)

#endif
