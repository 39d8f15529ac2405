/* The libFuzzer target (gmfuzz-libfuzzer-cpu, gmfuzz-libfuzzer-cuda): each
 * input is decoded into a case (fuzz_decode.h), run through the reference
 * and the fused kernel, classified, and checked against the baseline
 * (fuzz.h). A new signature is saved as a gmfuzz-repro-v1 file in
 * GMFUZZ_FAILURE_DIR, then the target aborts so that libFuzzer records the
 * input too. Settings: fuzz.h; usage: docs/FUZZING.md.
 *
 * The custom mutator does GMFUZZ_CASE_MUTATION percent of the mutations at
 * the case level (decode, fuzz_mutate, encode) and leaves the rest to
 * libFuzzer's byte mutators. The target adds -entropic_scale_per_exec_time=1
 * to the command line unless it sets that flag.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_mutate.h"
#include "fuzz_rng.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#ifndef GMFUZZ_TARGET_BACKEND
#define GMFUZZ_TARGET_BACKEND HARNESS_BACKEND_CPU
#endif

/* Case-level mutations applied in one custom-mutator step: 1 to this. */
#define FUZZ_LIBFUZZER_MAX_STEPS 3

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* The target's settings and open backend: libFuzzer's entry points take no
 * context, so this one struct is set in LLVMFuzzerInitialize and only read
 * afterwards (execs, its counter, excepted). */
static fuzz_harness fuzz_libfuzzer_harness;

/* libFuzzer flags the target adds unless the command line sets them:
 * schedule fast inputs first. Case sizes vary by orders of magnitude and the
 * corpus drifts toward large ones; this flag gave 2.7x the executions per
 * second at the same coverage (docs/FUZZING.md, Measurements). */
static const char *const fuzz_libfuzzer_defaults[] = {"-entropic_scale_per_exec_time=1"};

/* The argument vector with the defaults, kept for the process's life. */
static char **fuzz_libfuzzer_argv;

static void fuzz_libfuzzer_close(void) { fuzz_harness_close(&fuzz_libfuzzer_harness); }

static bool fuzz_libfuzzer_has_flag(int argc, char **argv, const char *flag) {
    size_t name = (size_t)(strchr(flag, '=') - flag + 1); /* "-name=" */
    for (int k = 1; k < argc; k++) {
        if (strncmp(argv[k], flag, name) == 0) {
            return true;
        }
    }
    return false;
}

/* LLVMFuzzerInitialize runs before libFuzzer parses its flags, and libFuzzer
 * reads *argv again afterwards: the place to add default flags. The new
 * argument vector lives as long as the process. */
static void fuzz_libfuzzer_add_defaults(int *argc, char ***argv) {
    if (*argc < 2) {
        /* No arguments: not libFuzzer as anyone runs it, but another
         * engine's driver (AFL++'s reads an argv[1] of "-..." as its loop
         * count, and asserted on ours): leave the command line alone. */
        return;
    }
    size_t n = sizeof fuzz_libfuzzer_defaults / sizeof fuzz_libfuzzer_defaults[0];
    char **args = malloc(((size_t)*argc + n + 1) * sizeof *args);
    if (args == NULL) {
        return; /* run with the flags given */
    }
    int count = 0;
    args[count++] = (*argv)[0];
    for (size_t k = 0; k < n; k++) {
        if (!fuzz_libfuzzer_has_flag(*argc, *argv, fuzz_libfuzzer_defaults[k])) {
            args[count++] = (char *)fuzz_libfuzzer_defaults[k];
        }
    }
    for (int k = 1; k < *argc; k++) {
        args[count++] = (*argv)[k];
    }
    args[count] = NULL;
    *argc = count;
    *argv = args;
    fuzz_libfuzzer_argv = args; /* reachable for good, whoever drops *argv */
}

/* Every input allocates and frees a case and its outputs, up to megabytes
 * each: with glibc's defaults the large ones were mapped and unmapped, or
 * the heap's top trimmed, on most inputs, and the fresh pages' faults were
 * a tenth of the target's time. Keep that memory in the heap instead (its
 * peak is a few case sizes). Other C libraries: their defaults. */
static void fuzz_libfuzzer_keep_memory(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); /* glibc's largest */
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_libfuzzer_keep_memory();
    fuzz_libfuzzer_add_defaults(argc, argv);
    gm_error err = {0};
    if (!fuzz_harness_open(&fuzz_libfuzzer_harness, GMFUZZ_TARGET_BACKEND, "libfuzzer", &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        exit(err.code == GM_ERR_START ? HARNESS_EXIT_NO_START : 1);
    }
    atexit(fuzz_libfuzzer_close);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    triage_finding finding = {0};
    fuzz_check_result r = fuzz_harness_run(&fuzz_libfuzzer_harness, data, size, &finding);
    if (r == FUZZ_CHECK_FAILURE || r == FUZZ_CHECK_UNSAVED || r == FUZZ_CHECK_BROKEN) {
        fuzz_harness_report(&fuzz_libfuzzer_harness, r, &finding);
        if (fuzz_harness_must_abort(&fuzz_libfuzzer_harness, r)) {
            fuzz_harness_abort(r);
        }
    }
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    fuzz_rng rng;
    fuzz_rng_seed(&rng, seed);
    if (fuzz_rng_below(&rng, 100) < fuzz_libfuzzer_harness.case_mutation_percent) {
        /* The case of the input run last, to copy arrays from. */
        fuzz_recipe_donor base;
        bool kept = fuzz_libfuzzer_harness.defer.cap == 0 &&
                    fuzz_reuse_base(&fuzz_libfuzzer_harness.reuse, &base);
        size_t n = fuzz_mutate_input(data, size, max_size, &rng, FUZZ_LIBFUZZER_MAX_STEPS,
                                     kept ? &base : NULL);
        if (n > 0) {
            return n;
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
