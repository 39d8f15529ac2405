/* fake_libfuzzer: a stand-in for a libFuzzer target, so the campaign
 * driver's tests run in every tree (no clang, no -fsanitize=fuzzer).
 *
 * It takes libFuzzer's command line (-flag=value ... CORPUS_DIR) and
 * environment (GMFUZZ_FAILURE_DIR, GMFUZZ_BASELINE, GMFUZZ_COMPARE,
 * GMFUZZ_STRICT_BASELINE, GMFUZZ_KEEP_GOING, GMFUZZ_REFERENCE), runs every JSON case of the
 * corpus through the real per-input check (fuzz/fuzz.h) over and
 * over, prints status lines in libFuzzer's format, and behaves as the
 * gmfuzz libFuzzer target does: on a failure (saved by fuzz_check) it
 * prints the crash report and its final stats and aborts, or with
 * GMFUZZ_KEEP_GOING=1 saves each signature once and goes on; at -runs or
 * -max_total_time it prints "Done" and exits 0; on SIGINT it prints its
 * final stats and exits.
 *
 * FAKE_EXEC_US (default 1000) is how long one execution pretends to take,
 * so a test's timing does not depend on the machine. FAKE_FILL=PATH: at
 * start, write PATH until the disk is full (the full-disk test).
 * FAKE_IGNORE_LIMITS=1: -max_total_time and -runs are ignored (the driver
 * must end it); FAKE_IGNORE_SIGINT=1: SIGINT is ignored (the driver must
 * kill it); FAKE_STALL_AFTER=N: after N executions it blocks for good,
 * with no output and no CPU time (a deadlocked target); FAKE_SPIN_AFTER=N:
 * after N executions it spins for good, using CPU and printing a line
 * every 100 ms, its execution count standing still (a target in a loop).
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "gm_json.h"

typedef struct {
    unsigned long long runs;  /* -runs: 0, no limit */
    long max_total_time;      /* -max_total_time: 0, no limit */
    const char *corpus;
} fake_args;

static volatile sig_atomic_t fake_interrupted;

static void fake_on_sigint(int sig) {
    (void)sig;
    fake_interrupted = 1;
}

static void fake_parse(int argc, char **argv, fake_args *a) {
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-runs=", 6) == 0) {
            a->runs = strtoull(argv[i] + 6, NULL, 10);
        } else if (strncmp(argv[i], "-max_total_time=", 16) == 0) {
            a->max_total_time = strtol(argv[i] + 16, NULL, 10);
        } else if (argv[i][0] != '-') {
            a->corpus = argv[i];
        }
    }
}

/* The corpus's JSON cases (and the cases of vectors and reproducers). */
static size_t fake_load(const char *dir, gm_doc *docs, size_t max) {
    DIR *d = dir ? opendir(dir) : NULL;
    size_t n = 0;
    gm_limits lim;
    gm_limits_default(&lim);
    char path[4096];
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL && n < max; e = readdir(d)) {
        gm_error err = {0};
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) {
            continue;
        }
        gm_doc_init(&docs[n]);
        if (strstr(e->d_name, ".json") != NULL &&
            gm_json_read_file(path, &lim, &docs[n], &err)) {
            n++;
        } else {
            gm_doc_free(&docs[n]);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

enum { FAKE_SEEN_MAX = 64 };
static char fake_seen[FAKE_SEEN_MAX][TRIAGE_SIGNATURE_MAX];
static size_t fake_n_seen;

/* Keep-going mode: whether `signature` was saved by this process. */
static bool fake_was_seen(const char *signature) {
    for (size_t i = 0; i < fake_n_seen; i++) {
        if (strcmp(fake_seen[i], signature) == 0) {
            return true;
        }
    }
    return false;
}

static void fake_mark_seen(const char *signature) {
    if (fake_n_seen < FAKE_SEEN_MAX) {
        snprintf(fake_seen[fake_n_seen++], TRIAGE_SIGNATURE_MAX, "%s", signature);
    }
}

/* One input: what the real target does next (fuzz_harness.c). */
typedef enum { FAKE_GO_ON, FAKE_ABORT, FAKE_UNSAVED } fake_next;

static fake_next fake_one(fuzz_check_config *cfg, const gm_case *c, bool keep_going) {
    if (!keep_going) {
        fuzz_check_result r = fuzz_check_case(cfg, c, NULL);
        return r == FUZZ_CHECK_UNSAVED ? FAKE_UNSAVED
               : r == FUZZ_CHECK_FAILURE ? FAKE_ABORT
                                         : FAKE_GO_ON;
    }
    fuzz_check_config quiet = *cfg;
    triage_finding f;
    quiet.failure_dir = NULL;
    if (fuzz_check_case(&quiet, c, &f) == FUZZ_CHECK_FAILURE && !fake_was_seen(f.signature)) {
        if (fuzz_check_case(cfg, c, NULL) == FUZZ_CHECK_UNSAVED) {
            return FAKE_UNSAVED; /* not marked: it would be tried again */
        }
        fake_mark_seen(f.signature);
        printf("gmfuzz: new finding %s, going on\n", f.signature);
    }
    return FAKE_GO_ON;
}

static void fake_final_stats(unsigned long long execs) {
    printf("stat::number_of_executed_units: %llu\n", execs);
    printf("stat::average_exec_per_sec:     1000\n");
    fflush(stdout);
}

static bool fake_config(fuzz_check_config *cfg, harness_backend **b, triage_baseline **base) {
    const char *compare = getenv("GMFUZZ_COMPARE");
    const char *baseline = getenv("GMFUZZ_BASELINE");
    const char *strict = getenv("GMFUZZ_STRICT_BASELINE");
    gm_error err = {0};
    memset(cfg, 0, sizeof *cfg);
    if (!harness_backend_open(HARNESS_BACKEND_CPU, b, &err) ||
        !(baseline ? triage_baseline_load(baseline, base, &err) : triage_baseline_empty(base, &err))) {
        fprintf(stderr, "fake_libfuzzer: %s\n", err.msg);
        return false;
    }
    cfg->backend = *b;
    cfg->level = compare && strcmp(compare, "strict") == 0 ? GM_COMPARE_STRICT : GM_COMPARE_LIVE;
    cfg->baseline = *base;
    cfg->strict_baseline = strict != NULL && strcmp(strict, "1") == 0;
    cfg->failure_dir = getenv("GMFUZZ_FAILURE_DIR");
    cfg->engine = "libfuzzer";
    /* a three-way campaign (GMFUZZ_REFERENCE=python:...), as the real target */
    const char *reference = getenv("GMFUZZ_REFERENCE");
    if (reference != NULL && reference[0] != '\0' &&
        !harness_run_legacy_open(reference, false, 10.0, &cfg->legacy, &err)) {
        fprintf(stderr, "fake_libfuzzer: GMFUZZ_REFERENCE: %s\n", err.msg);
        return false;
    }
    return true;
}

/* FAKE_SPIN_AFTER: busy, talkative and getting nowhere, until killed. */
static void fake_spin(unsigned long long execs) {
    for (unsigned long long k = 0;; k++) {
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do { /* 100 ms of CPU time */
            clock_gettime(CLOCK_MONOTONIC, &t);
        } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 100000000L);
        printf("fake_libfuzzer: spinning at %llu executions (%llu)\n", execs, k);
        fflush(stdout);
    }
}

/* Runs the corpus round and round; returns the exit code. */
static int fake_fuzz(const fake_args *a, fuzz_check_config *cfg, gm_doc *docs, size_t n) {
    const long exec_us = getenv("FAKE_EXEC_US") ? atol(getenv("FAKE_EXEC_US")) : 1000;
    const char *keep = getenv("GMFUZZ_KEEP_GOING");
    const bool keep_going = keep != NULL && strcmp(keep, "1") == 0;
    const struct timespec pause = {exec_us / 1000000, (exec_us % 1000000) * 1000};
    time_t start = time(NULL);
    unsigned long long execs = 0;
    const char *ignore = getenv("FAKE_IGNORE_LIMITS");
    const bool limits = ignore == NULL || strcmp(ignore, "1") != 0;
    const char *stall = getenv("FAKE_STALL_AFTER");
    const unsigned long long stall_after = stall != NULL ? strtoull(stall, NULL, 10) : 0;
    const char *spin = getenv("FAKE_SPIN_AFTER");
    const unsigned long long spin_after = spin != NULL ? strtoull(spin, NULL, 10) : 0;
    printf("#0\tINITED cov: 10 ft: 10 corp: %zu/1Kb exec/s: 0 rss: 30Mb\n", n);
    for (size_t i = 0; !fake_interrupted; i++) {
        if (stall_after != 0 && execs >= stall_after) {
            fflush(stdout);
            for (;;) {
                sigset_t none; /* no output, no CPU time: only a signal ends it */
                sigemptyset(&none);
                sigsuspend(&none);
            }
        }
        if (spin_after != 0 && execs >= spin_after) {
            fake_spin(execs);
        }
        if (limits && ((a->runs && execs >= a->runs) ||
                       (a->max_total_time && time(NULL) - start >= a->max_total_time))) {
            printf("#%llu\tDONE   cov: %zu ft: 20 corp: %zu/1Kb exec/s: 1000 rss: 30Mb\n",
                   execs, 10 + n, n);
            printf("Done %llu runs in %ld second(s)\n", execs, (long)(time(NULL) - start));
            fake_final_stats(execs);
            return 0;
        }
        nanosleep(&pause, NULL);
        execs++;
        cfg->execs = execs;
        fake_next next = n > 0 ? fake_one(cfg, &docs[i % n].c, keep_going) : FAKE_GO_ON;
        if (next == FAKE_UNSAVED) {
            fflush(stdout);
            _exit(FUZZ_CHECK_EXIT_UNSAVED);
        }
        if (next == FAKE_ABORT) {
            printf("==%ld== ERROR: libFuzzer: deadly signal\n", (long)getpid());
            fake_final_stats(execs);
            abort();
        }
        if ((execs & (execs - 1)) == 0) {
            printf("#%llu\tpulse  cov: %zu ft: 20 corp: %zu/1Kb lim: 4 exec/s: 1000 rss: 30Mb\n",
                   execs, 10 + n, n);
            fflush(stdout);
        }
    }
    printf("==%ld== libFuzzer: run interrupted; exiting\n", (long)getpid());
    fake_final_stats(execs);
    return 72;
}

/* FAKE_FILL: takes every free block of PATH's file system. */
static void fake_fill_disk(void) {
    const char *path = getenv("FAKE_FILL");
    FILE *f = path != NULL ? fopen(path, "ab") : NULL;
    static const char block[4096];
    if (f == NULL) {
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    size_t put = 0;
    while (fwrite(block, 1, sizeof block, f) == sizeof block) {
        put += sizeof block;
    }
    while (fwrite(block, 1, 1, f) == 1) {
        put++;
    }
    fclose(f);
    printf("fake_libfuzzer: filled %s with %zu bytes: the disk is full\n", path, put);
}

int main(int argc, char **argv) {
    fake_fill_disk();
    fake_args a;
    fake_parse(argc, argv, &a);
    const char *deaf = getenv("FAKE_IGNORE_SIGINT");
    signal(SIGINT, deaf != NULL && strcmp(deaf, "1") == 0 ? SIG_IGN : fake_on_sigint);
    enum { FAKE_MAX_DOCS = 64 };
    static gm_doc docs[FAKE_MAX_DOCS];
    size_t n = fake_load(a.corpus, docs, FAKE_MAX_DOCS);
    fuzz_check_config cfg;
    harness_backend *b = NULL;
    triage_baseline *base = NULL;
    int rc = fake_config(&cfg, &b, &base) ? fake_fuzz(&a, &cfg, docs, n) : 1;
    for (size_t i = 0; i < n; i++) {
        gm_doc_free(&docs[i]);
    }
    triage_baseline_free(base);
    harness_backend_close(b);
    harness_run_legacy_close(cfg.legacy);
    return rc;
}
