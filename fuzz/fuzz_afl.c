/* The AFL++ harness (gmfuzz-afl): the same decoder and check as the
 * libFuzzer target (fuzz.h), in persistent mode with test cases in
 * shared memory when compiled by afl-clang-fast / afl-clang-lto. A failure
 * is saved in GMFUZZ_FAILURE_DIR, then the process aborts so that AFL++
 * records a crash.
 *
 *   gmfuzz-afl FILE...   replays files: prints each verdict; exit 1 when
 *                        one is a failure (any build)
 *   gmfuzz-afl           under afl-fuzz: the persistent loop (outside
 *                        afl-fuzz it reads one input from stdin); in a
 *                        plain build: replays one input from stdin
 *
 * docs/FUZZING.md shows how to run a main and secondaries on every core.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

#ifndef GMFUZZ_TARGET_BACKEND
#define GMFUZZ_TARGET_BACKEND HARNESS_BACKEND_CPU
#endif

#define FUZZ_AFL_MAX_INPUT ((size_t)16 << 20)

#ifdef __AFL_FUZZ_TESTCASE_LEN
#include <unistd.h> /* AFL++'s shared-memory test case macros call read() */
__AFL_FUZZ_INIT();
#endif

/* Reads a whole stream (at most FUZZ_AFL_MAX_INPUT bytes). */
static uint8_t *fuzz_afl_slurp(FILE *f, size_t *size) {
    uint8_t *buf = malloc(FUZZ_AFL_MAX_INPUT);
    if (buf != NULL) {
        *size = fread(buf, 1, FUZZ_AFL_MAX_INPUT, f);
    }
    return buf;
}

/* One input. Fuzzing: silent, and a failure aborts (AFL++ records a
 * crash). Replaying: prints the verdict; returns 1 for a failure. */
static int fuzz_afl_one(fuzz_harness *h, const char *label, const uint8_t *data, size_t size,
                        bool fuzzing) {
    triage_finding f = {0};
    fuzz_check_result r = fuzz_harness_run(h, data, size, &f);
    bool failed = r == FUZZ_CHECK_FAILURE || r == FUZZ_CHECK_UNSAVED || r == FUZZ_CHECK_BROKEN;
    if (failed) {
        fuzz_harness_report(h, r, &f);
        if (fuzzing && fuzz_harness_must_abort(h, r)) {
            fuzz_harness_abort(r);
        }
    }
    if (!fuzzing) {
        const char *what = r == FUZZ_CHECK_MATCH ? "match" : failed ? "FAILURE" : "known";
        printf("%s: %s %s\n", label, what, r == FUZZ_CHECK_MATCH ? "" : f.signature);
    }
    return failed ? 1 : 0;
}

static int fuzz_afl_replay(fuzz_harness *h, int argc, char **argv) {
    int failures = 0;
    for (int k = 1; k < argc; k++) {
        FILE *f = fopen(argv[k], "rb");
        size_t size = 0;
        uint8_t *data = f != NULL ? fuzz_afl_slurp(f, &size) : NULL;
        if (f != NULL) {
            fclose(f);
        }
        if (data == NULL) {
            fprintf(stderr, "gmfuzz-afl: cannot read %s\n", argv[k]);
            failures++;
            continue;
        }
        failures += fuzz_afl_one(h, argv[k], data, size, false);
        free(data);
    }
    return failures > 0 ? 1 : 0;
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
static int fuzz_afl_persistent(fuzz_harness *h) {
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT(); /* fork after the baseline is loaded and the backend open */
#endif
    const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(100000)) {
        fuzz_afl_one(h, "input", buf, (size_t)__AFL_FUZZ_TESTCASE_LEN, true);
    }
    return 0;
}
#else
static int fuzz_afl_stdin(fuzz_harness *h) {
    size_t size = 0;
    uint8_t *data = fuzz_afl_slurp(stdin, &size);
    int rc = data != NULL ? fuzz_afl_one(h, "stdin", data, size, false) : 1;
    free(data);
    return rc;
}
#endif

int main(int argc, char **argv) {
    fuzz_harness h;
    gm_error err = {0};
    if (!fuzz_harness_open(&h, GMFUZZ_TARGET_BACKEND, "afl++", &err)) {
        fprintf(stderr, "gmfuzz-afl: %s\n", err.msg);
        return err.code == GM_ERR_START ? HARNESS_EXIT_NO_START : 2;
    }
    int rc;
    if (argc > 1) {
        rc = fuzz_afl_replay(&h, argc, argv);
    } else {
#ifdef __AFL_FUZZ_TESTCASE_LEN
        rc = fuzz_afl_persistent(&h);
#else
        rc = fuzz_afl_stdin(&h);
#endif
    }
    fuzz_harness_close(&h);
    return rc;
}
