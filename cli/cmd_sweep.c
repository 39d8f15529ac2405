#include "cmd_sweep.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_options.h"
#include "cmd_fuzz.h"
#include "fuzz.h"
#include "harness.h"
#include "gm_hash.h"

static const char cmd_sweep_usage[] =
    "usage: gmfuzz sweep [options]\n"
    "\n"
    "Structured random cases (harness/harness_gen.c), no coverage, sent to the\n"
    "target in batches by one job per core: for GPU targets whose bugs no\n"
    "host-side coverage sees. A difference whose signature the baseline does\n"
    "not know is saved in DIR/failures/; at the end one representative per\n"
    "signature is minimized into DIR/repros/ and a summary is printed and\n"
    "written to DIR/summary.txt, as `gmfuzz fuzz` does (this is `gmfuzz fuzz\n"
    "--engine sweep`). Ctrl-C ends it early and keeps everything.\n"
    "\n";

/* Its flags come from the campaign's one table (campaign_options_usage). */
static const char cmd_sweep_usage_end[] =
    "\n"
    "exit codes: 0 nothing new found, 1 a new signature was found, 2 usage,\n"
    "4 infrastructure (target missing, a job failed to start), 5 the --out\n"
    "folder is in use by another campaign, 6 a finding could not be saved\n";

static const char cmd_sweep_job_usage[] =
    "usage: gmfuzz sweep-job [-max_total_time=S] [-runs=N] [-seed=N] [-batch=N] [-shape_run=N]\n"
    "  one job of `gmfuzz sweep` (the campaign driver starts it): generated\n"
    "  cases through the fuzzing harness its environment describes\n"
    "  (fuzz/fuzz.h), libFuzzer's status lines on stderr\n"
    "  -h, --help  this text\n";

int cmd_sweep_main(int argc, char **argv) {
    const cmd_fuzz_help help = {cmd_sweep_usage, CAMPAIGN_HELP_SWEEP, cmd_sweep_usage_end};
    return cmd_fuzz_as("sweep", &help, CAMPAIGN_SWEEP, argc, argv);
}

typedef struct {
    double max_s;      /* -max_total_time */
    uint64_t runs;     /* -runs; 0: no limit */
    uint64_t seed;     /* -seed */
    size_t batch;      /* -batch */
    uint64_t shape_run; /* -shape_run: cases a shape */
    bool help;
} cmd_sweep_job;

static bool cmd_sweep_job_flag(const char *arg, const char *name, uint64_t *out) {
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) {
        return false;
    }
    *out = strtoull(arg + n, NULL, 10);
    return true;
}

static bool cmd_sweep_job_parse(int argc, char **argv, cmd_sweep_job *j) {
    uint64_t v = 0;
    *j = (cmd_sweep_job){.max_s = 60, .batch = 64, .seed = 1, .shape_run = 1};
    for (int i = 1; i < argc; i++) {
        if (cmd_sweep_job_flag(argv[i], "-max_total_time=", &v)) {
            j->max_s = (double)v;
        } else if (cmd_sweep_job_flag(argv[i], "-runs=", &v)) {
            j->runs = v;
        } else if (cmd_sweep_job_flag(argv[i], "-seed=", &v)) {
            j->seed = v;
        } else if (cmd_sweep_job_flag(argv[i], "-batch=", &v) && v >= 1 && v <= 65536) {
            j->batch = (size_t)v;
        } else if (cmd_sweep_job_flag(argv[i], "-shape_run=", &v) && v >= 1 && v <= 65536) {
            j->shape_run = v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            j->help = true;
        } else {
            fprintf(stderr, "gmfuzz sweep-job: unknown argument '%s'\n", argv[i]);
            return false;
        }
    }
    return true;
}

static double cmd_sweep_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile sig_atomic_t cmd_sweep_stop;
static void cmd_sweep_on_signal(int sig) {
    (void)sig;
    cmd_sweep_stop = 1;
}

/* The job's case stream: by specialization class (fuzz_sched.h, when the
 * harness works by class), else runs of `run` cases of one shape, the
 * first of each drawn whole (harness_gen_case), the others like it. */
typedef struct {
    harness_gen g;
    uint64_t run;   /* cases a shape */
    uint64_t drawn; /* cases so far */
    gm_case shape;  /* the current run's first case */
    bool by_class;
    fuzz_sched sched;
} cmd_sweep_stream;

static bool cmd_sweep_next(cmd_sweep_stream *s, gm_case *c, gm_error *err) {
    if (s->drawn++ % s->run != 0) {
        return harness_gen_case_like(&s->g, &s->shape, c, err);
    }
    if (!harness_gen_case(&s->g, c, err)) {
        return false;
    }
    if (s->run == 1) {
        return true;
    }
    gm_case_free(&s->shape);
    gm_case_init(&s->shape);
    return gm_case_copy(&s->shape, c, err);
}

/* Draws at most n cases into `cases` (each freed before it is drawn
 * again), *n then how many: by class, a run may end before the batch. */
static bool cmd_sweep_draw(cmd_sweep_stream *s, gm_case *cases, size_t *n) {
    gm_error err = {0};
    if (s->by_class) {
        bool ok = fuzz_sched_draw(&s->sched, cases, *n, n, &err);
        if (!ok) {
            fprintf(stderr, "gmfuzz sweep-job: %s\n", err.msg);
        }
        return ok;
    }
    size_t want = *n;
    *n = 0;
    for (size_t k = 0; k < want; k++) {
        gm_case_free(&cases[k]);
        gm_case_init(&cases[k]);
        if (!cmd_sweep_next(s, &cases[k], &err)) {
            fprintf(stderr, "gmfuzz sweep-job: %s\n", err.msg);
            return false;
        }
    }
    *n = want;
    return true;
}

static int cmd_sweep_job_loop(fuzz_harness *h, const cmd_sweep_job *j) {
    gm_case *cases = calloc(j->batch, sizeof *cases);
    const gm_case **ptrs = calloc(j->batch, sizeof *ptrs);
    if (cases == NULL || ptrs == NULL) {
        free(cases);
        free(ptrs);
        return 1;
    }
    for (size_t k = 0; k < j->batch; k++) {
        gm_case_init(&cases[k]);
        ptrs[k] = &cases[k];
    }
    cmd_sweep_stream stream = {.run = j->shape_run, .by_class = h->by_class};
    harness_gen_seed(&stream.g, j->seed * GM_HASH_GOLDEN);
    gm_case_init(&stream.shape);
    gm_error err = {0};
    fuzz_sched_config sched = h->sched;
    sched.by_runs = j->runs != 0; /* --cases: one fixed set of cases (fuzz_sched.h) */
    if (stream.by_class &&
        !fuzz_sched_init(&stream.sched, &sched, j->seed, (unsigned)j->seed, &err)) {
        fprintf(stderr, "gmfuzz sweep-job: %s\n", err.msg);
        free(cases);
        free(ptrs);
        return 1;
    }
    double start = cmd_sweep_now(), last = start;
    uint64_t done = 0;
    int rc = 0;
    while (!cmd_sweep_stop && cmd_sweep_now() - start < j->max_s && (j->runs == 0 || done < j->runs)) {
        size_t n = j->runs != 0 && j->runs - done < j->batch ? (size_t)(j->runs - done) : j->batch;
        size_t failures = 0;
        double jit_before = harness_backend_jit_counts(h->backend).seconds;
        fuzz_check_result res = cmd_sweep_draw(&stream, cases, &n)
                                    ? fuzz_harness_run_batch(h, ptrs, n, &failures)
                                    : FUZZ_CHECK_BROKEN;
        if (stream.by_class) {
            fuzz_sched_charge(&stream.sched,
                              harness_backend_jit_counts(h->backend).seconds - jit_before);
        }
        if (res == FUZZ_CHECK_BROKEN || res == FUZZ_CHECK_UNSAVED) {
            /* a failure that could not be saved: the campaign must know */
            rc = res == FUZZ_CHECK_UNSAVED ? FUZZ_CHECK_EXIT_UNSAVED : 1;
            break;
        }
        done += n;
        double now = cmd_sweep_now();
        if (now - last >= 1.0) {
            fprintf(stderr, "#%" PRIu64 "\tpulse  exec/s: %.0f\n", done, (double)done / (now - start));
            last = now;
        }
    }
    double spent = cmd_sweep_now() - start;
    fprintf(stderr, "stat::number_of_executed_units: %" PRIu64 "\n", done);
    fprintf(stderr, "stat::average_exec_per_sec:     %.0f\n", spent > 0 ? (double)done / spent : 0.0);
    for (size_t k = 0; k < j->batch; k++) {
        gm_case_free(&cases[k]);
    }
    gm_case_free(&stream.shape);
    if (stream.by_class) {
        fprintf(stderr, "stat::gmfuzz_target_classes: %zu\n", stream.sched.n_known);
        fuzz_sched_free(&stream.sched);
    }
    free(cases);
    free(ptrs);
    return rc;
}

int cmd_sweep_job_main(int argc, char **argv) {
    cmd_sweep_job j;
    if (!cmd_sweep_job_parse(argc, argv, &j)) {
        return CLI_EXIT_USAGE;
    }
    if (j.help) {
        fputs(cmd_sweep_job_usage, stdout);
        return CLI_EXIT_OK;
    }
    signal(SIGINT, cmd_sweep_on_signal);
    signal(SIGTERM, cmd_sweep_on_signal);
    fuzz_harness h;
    gm_error err = {0};
    if (!fuzz_harness_open(&h, HARNESS_BACKEND_CPU, "sweep", &err)) {
        fprintf(stderr, "gmfuzz sweep-job: %s\n", err.msg);
        return err.code == GM_ERR_START ? HARNESS_EXIT_NO_START : CLI_EXIT_BACKEND;
    }
    int rc = cmd_sweep_job_loop(&h, &j);
    fuzz_harness_close(&h);
    return rc;
}
