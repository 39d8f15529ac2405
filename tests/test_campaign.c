/* The file side of the campaign driver (campaign/campaign_*.c): the log
 * follower, processes, the lock, progress, the failure folder, the
 * campaign baseline, reproducer names and the summary
 * (test_campaign_engines.c has the engines' output, the status line,
 * options and command lines).
 *
 *   test_campaign WORK_DIR DATA_DIR KNOWN_JSON
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign_baseline.h"
#include "campaign_checked.h"
#include "campaign_failures.h"
#include "campaign_lock.h"
#include "campaign_log.h"
#include "campaign_proc.h"
#include "campaign_progress.h"
#include "campaign_repro.h"
#include "campaign_summary.h"
#include "gm_json.h"
#include "repro.h"
#include "harness.h"
#include "gm_test.h"
#include "test_campaign_setup.h"

static const char *work_dir, *data_dir, *known_json;

/* ---- files -------------------------------------------------------------- */

static void on_line(const char *line, void *ctx) {
    char *seen = ctx;
    strcat(seen, "[");
    strcat(seen, line);
    strcat(seen, "]");
}

static void test_log_follow(void) {
    char path[4096], seen[256] = "";
    snprintf(path, sizeof path, "%s/follow.log", work_dir);
    remove(path);
    campaign_log log;
    campaign_log_init(&log);
    campaign_log_follow(&log, path, on_line, seen); /* no file yet */
    CHECK(strcmp(seen, "") == 0);
    FILE *f = fopen(path, "w");
    fputs("one\ntw", f);
    fflush(f);
    campaign_log_follow(&log, path, on_line, seen);
    CHECK(strcmp(seen, "[one]") == 0);
    fputs("o\n\nthree\n", f);
    fclose(f);
    campaign_log_follow(&log, path, on_line, seen);
    CHECK(strcmp(seen, "[one][two][][three]") == 0);
    campaign_log_follow(&log, path, on_line, seen);
    CHECK(strcmp(seen, "[one][two][][three]") == 0);
}

/* An empty folder `dir` (its files from an earlier run removed). */
static void fresh_dir(const char *dir) {
    mkdir(dir, 0777);
    DIR *d = opendir(dir);
    char path[4400];
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
}

/* The whole of a small file (static buffer). */
static const char *slurp(const char *path) {
    static char text[4096];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f) {
        fclose(f);
    }
    return text;
}

/* Polls until the process has ended (at most 60 s: a loaded machine starts a
 * shell late; the test asserts how it ended, not how soon). */
static void wait_for(campaign_proc *p) {
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 6000 && campaign_proc_poll(p); i++) {
        nanosleep(&tick, NULL);
    }
}

static void test_proc(void) {
    char log[4096], how[64], last[64];
    snprintf(log, sizeof log, "%s/proc.log", work_dir);
    remove(log);
    campaign_proc p;
    gm_error err = {0};
    char *argv[] = {"sh", "-c", "echo \"x=$GMFUZZ_X\"; echo oops >&2; exit 3", NULL};
    char *env[] = {"GMFUZZ_X=from-driver", NULL};
    setenv("GMFUZZ_X", "from-parent", 1); /* the extra environment wins */
    CHECK(campaign_proc_start(&p, argv, env, log, &err));
    wait_for(&p);
    CHECK(!p.running && p.exited);
    CHECK_EQ_I64(p.code, 3);
    CHECK(strcmp(slurp(log), "x=from-driver\noops\n") == 0);
    campaign_proc_describe(&p, how, sizeof how);
    CHECK(strcmp(how, "exit 3") == 0);
    campaign_log_last_line(log, last, sizeof last);
    CHECK(strcmp(last, "oops") == 0);
    /* Stopping: SIGINT to the group, then SIGKILL after the grace time. */
    char *sleeper[] = {"sh", "-c", "trap '' INT; echo ready; sleep 30", NULL};
    char *no_env[] = {NULL};
    campaign_proc procs[2];
    char *quick[] = {"sleep", "30", NULL};
    remove(log);
    CHECK(campaign_proc_start(&procs[0], quick, no_env, log, &err));
    CHECK(campaign_proc_start(&procs[1], sleeper, no_env, log, &err));
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 6000 && strstr(slurp(log), "ready") == NULL; i++) {
        nanosleep(&tick, NULL); /* until the second one ignores SIGINT */
    }
    /* A grace time the first one's death of SIGINT fits in on a loaded machine. */
    campaign_proc_stop_all(procs, 2, 1000);
    CHECK(!procs[0].running && !procs[0].exited && procs[0].code == 2);  /* SIGINT */
    CHECK(!procs[1].running && !procs[1].exited);
    CHECK_EQ_I64(procs[1].code, 9); /* SIGKILL */
    char *missing[] = {"/nonexistent/engine", NULL};
    CHECK(!campaign_proc_start(&p, missing, no_env, log, &err));
    CHECK_STR_CONTAINS(err.msg, "/nonexistent/engine: cannot start");
}

/* Runs a test case and saves it as a failure file named `name`. */
static bool write_failure(const char *dir, const char *name, const char *case_file,
                          uint64_t execs, triage_finding *f) {
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/cases/%s", data_dir, case_file);
    snprintf(out, sizeof out, "%s/%s", dir, name);
    gm_limits lim;
    gm_limits_default(&lim);
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    harness_backend *b = NULL;
    harness_run_result r;
    harness_run_result_init(&r);
    repro_origin origin = {"libfuzzer", execs, false, NULL, NULL};
    bool ok = gm_json_read_file(in, &lim, &doc, &err) &&
              harness_backend_open(HARNESS_BACKEND_CPU, &b, &err) &&
              harness_run_case(b, &doc.c, GM_COMPARE_LIVE, &r, &err);
    if (ok) {
        triage_classify(&doc.c, &r, f);
        ok = repro_write(out, &doc.c, &r, f, HARNESS_BACKEND_CPU, &origin, &err);
    }
    if (!ok) {
        fprintf(stderr, "write_failure: %s\n", err.msg);
    }
    harness_run_result_free(&r);
    harness_backend_close(b);
    gm_doc_free(&doc);
    return ok;
}

/* The lock of an output folder: a second holder (another open of the
 * file, as another process would make) is refused, naming the pid; once
 * released the folder is free again. */
static void test_lock(void) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/lock", work_dir);
    mkdir(dir, 0755);
    campaign_lock first, second;
    bool busy = true;
    gm_error err = {0};
    CHECK(campaign_lock_take(&first, dir, &busy, &err));
    CHECK(!busy);
    CHECK(!campaign_lock_take(&second, dir, &busy, &err));
    CHECK(busy);
    char pid[sizeof dir + 64];
    snprintf(pid, sizeof pid, "(pid %ld holds %s/campaign.lock)", (long)getpid(), dir);
    CHECK_STR_CONTAINS(err.msg, pid);
    CHECK_STR_CONTAINS(err.msg, "the folder is in use by another campaign");
    campaign_lock_release(&first);
    memset(&err, 0, sizeof err);
    CHECK(campaign_lock_take(&second, dir, &busy, &err));
    campaign_lock_release(&second);
    campaign_lock_release(&second); /* twice: nothing */
}

/* Progress: a growing log counts, a busy process group's CPU time counts,
 * a silent sleeping one does not. */
static void test_progress(void) {
    char log[4096];
    snprintf(log, sizeof log, "%s/progress.log", work_dir);
    remove(log);
    campaign_proc busy, idle;
    gm_error err = {0};
    char *spin[] = {"sh", "-c", "while :; do :; done", NULL};
    char *sleeper[] = {"sleep", "30", NULL};
    char *no_env[] = {NULL};
    CHECK(campaign_proc_start(&busy, spin, no_env, log, &err));
    CHECK(campaign_proc_start(&idle, sleeper, no_env, log, &err));
    campaign_progress pb, pi;
    campaign_progress_start(&pb, 0.0);
    campaign_progress_start(&pi, 0.0);
    CHECK(campaign_progress_idle(&pb, busy.pid, log, 0.0) == 0.0); /* first look: the log */
    CHECK(campaign_progress_idle(&pi, idle.pid, log, 0.0) == 0.0);
    const struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    CHECK(campaign_progress_group_cpu(busy.pid) > 0);
    campaign_progress_idle(&pi, idle.pid, log, 0.3); /* its CPU time so far, once */
    double idle_busy = 0.0, idle_idle = 0.0;
    for (int k = 2; k <= 4; k++) {
        nanosleep(&pause, NULL);
        idle_busy = campaign_progress_idle(&pb, busy.pid, log, 0.3 * k);
        idle_idle = campaign_progress_idle(&pi, idle.pid, log, 0.3 * k);
    }
    CHECK(idle_busy == 0.0);  /* it keeps using CPU */
    CHECK(idle_idle >= 0.59); /* nothing since 0.3 s */
    campaign_proc_stop_all((campaign_proc[]){busy, idle}, 2, 100);
    FILE *f = fopen(log, "a");
    CHECK(f != NULL);
    if (f != NULL) {
        fputs("more\n", f);
        fclose(f);
    }
    CHECK(campaign_progress_idle(&pi, idle.pid, log, 5.0) == 0.0); /* the log grew */
}

static void test_failures_scan(void) {
    char dir[4096], junk[4200];
    snprintf(dir, sizeof dir, "%s/failures", work_dir);
    fresh_dir(dir);
    triage_finding neg, oob;
    CHECK(write_failure(dir, "failure-aaaa-1-10.json", "negative_token.json", 10, &neg));
    CHECK(write_failure(dir, "failure-bbbb-1-20.json", "pool_index_out_of_range.json", 20, &oob));
    snprintf(junk, sizeof junk, "%s/failure-cccc-1-30.json", dir);
    FILE *f = fopen(junk, "w");
    fputs("{\"format\": \"gmfuzz-case-v1\"", f);
    fclose(f);
    snprintf(junk, sizeof junk, "%s/notes.json", dir); /* not a failure name: ignored */
    f = fopen(junk, "w");
    fclose(f);
    struct timespec start = {0, 0};
    campaign_failures fs;
    campaign_failures_init(&fs);
    CHECK_EQ_I64(campaign_failures_scan(&fs, dir, start), 2);
    CHECK_EQ_I64(fs.files, 3);
    CHECK_EQ_I64(fs.unreadable, 1);
    CHECK_EQ_I64(fs.n_sigs, 2);
    CHECK(write_failure(dir, "failure-aaaa-2-5.json", "negative_token.json", 5, &neg));
    CHECK_EQ_I64(campaign_failures_scan(&fs, dir, start), 0); /* same signature again */
    CHECK_EQ_I64(fs.files, 4);
    CHECK_EQ_I64(campaign_failures_scan(&fs, dir, start), 0); /* nothing read twice */
    CHECK_EQ_I64(fs.files, 4);
    campaign_failures_sort(&fs);
    const campaign_signature *s = NULL;
    for (size_t i = 0; i < fs.n_sigs; i++) {
        s = strcmp(fs.sigs[i].signature, neg.signature) == 0 ? &fs.sigs[i] : s;
    }
    CHECK(s != NULL);
    if (s != NULL) {
        CHECK_EQ_I64(s->count, 2);
        CHECK(s->first_s > 1e9); /* seconds since 1970: the files' times */
        CHECK(s->smallest != NULL && strstr(s->smallest, "failure-aaaa-") != NULL);
    }
    CHECK(fs.sigs[0].first_s <= fs.sigs[1].first_s);
    CHECK(campaign_failures_is_failure_name("failure-1-2-3.json"));
    CHECK(!campaign_failures_is_failure_name("failure-1-2-3.json.tmp.77"));
    CHECK(!campaign_failures_is_failure_name("crash-123"));
    campaign_failures_free(&fs);
}

/* A finding with `signature` (as the baseline sees it). */
static bool finding_known(const char *baseline_path, const triage_finding *f) {
    triage_baseline *b = NULL;
    gm_error err = {0};
    if (!triage_baseline_load(baseline_path, &b, &err)) {
        fprintf(stderr, "finding_known: %s\n", err.msg);
        return false;
    }
    bool known = triage_baseline_is_known(b, f);
    triage_baseline_free(b);
    return known;
}

static void test_campaign_baseline(void) {
    char dir[4096], out[4200];
    snprintf(dir, sizeof dir, "%s/baseline-failures", work_dir);
    snprintf(out, sizeof out, "%s/baseline.json", work_dir);
    fresh_dir(dir);
    triage_finding neg, oob;
    CHECK(write_failure(dir, "failure-1-1-1.json", "negative_token.json", 1, &neg));
    CHECK(write_failure(dir, "failure-2-1-1.json", "pool_index_out_of_range.json", 1, &oob));
    campaign_failures fs;
    campaign_failures_init(&fs);
    struct timespec start = {0, 0};
    gm_error err = {0};
    /* Strict: nothing known but what was found. */
    CHECK(campaign_baseline_write(NULL, &fs, "/o", out, &err));
    CHECK(!finding_known(out, &neg));
    CHECK_EQ_I64(campaign_failures_scan(&fs, dir, start), 2);
    CHECK(campaign_baseline_write(NULL, &fs, "/o", out, &err));
    CHECK(finding_known(out, &neg));
    CHECK(finding_known(out, &oob));
    /* From the shipped baseline: its classes stay, found signatures join,
     * and writing it again does not list them twice (the loader would
     * refuse the file). */
    CHECK(campaign_baseline_write(known_json, &fs, "/o", out, &err));
    CHECK(finding_known(out, &neg));
    CHECK(campaign_baseline_write(out, &fs, "/o", out, &err));
    CHECK(finding_known(out, &oob));
    CHECK(!campaign_baseline_write("/nonexistent/known.json", &fs, "/o", out, &err));
    CHECK_STR_CONTAINS(err.msg, "/nonexistent/known.json");
    campaign_failures_free(&fs);
}

/* ---- reproducers and the summary ---------------------------------------- */

static void test_slug(void) {
    char slug[TRIAGE_SIGNATURE_MAX];
    campaign_repro_slug("decode|unclassified|cu_seqlens_k+page_table", slug, sizeof slug);
    CHECK(strcmp(slug, "decode.unclassified.cu_seqlens_k-page_table") == 0);
    campaign_repro_slug("draft_decode|legacy_raises+fused_out_of_bounds|-", slug, sizeof slug);
    CHECK(strcmp(slug, "draft_decode.legacy_raises-fused_out_of_bounds._") == 0);
    campaign_repro_slug("a/../b", slug, sizeof slug);
    CHECK(strchr(slug, '/') == NULL);
    /* the longest signatures: cut to a file name, told apart by a hash */
    char longer[TRIAGE_SIGNATURE_MAX], other[TRIAGE_SIGNATURE_MAX];
    memset(longer, 'a', 300);
    longer[300] = '\0';
    campaign_repro_slug(longer, slug, sizeof slug);
    CHECK(strlen(slug) == CAMPAIGN_REPRO_SLUG_MAX);
    CHECK(slug[CAMPAIGN_REPRO_SLUG_MAX - 9] == '~');
    longer[299] = 'b';
    campaign_repro_slug(longer, other, sizeof other);
    CHECK(strlen(other) == CAMPAIGN_REPRO_SLUG_MAX && strcmp(slug, other) != 0);
}

/* The summary of a campaign with two signatures (one new, one known). */
typedef struct {
    campaign_setup setup;
    campaign_failures failures;
    campaign_signature sigs[2];
    campaign_repro repros[2];
    campaign_summary sum;
} summary_fixture;

static void summary_fixture_init(summary_fixture *x) {
    memset(x, 0, sizeof *x);
    test_campaign_setup_fake(&x->setup, CAMPAIGN_LIBFUZZER);
    x->setup.opt.time_s = 60;
    campaign_signature found = {.signature = "decode|unclassified|cu_seqlens_k", .count = 3,
                                .smallest = "/o/failures/failure-a.json",
                                .smallest_bytes = 4096, .first_s = 1.5, .first_execs = 900,
                                .first = "/o/failures/failure-a.json"};
    campaign_signature known = {.signature = "decode|negative_token_rounding|page_table",
                                .count = 1, .smallest = "/o/failures/failure-b.json",
                                .smallest_bytes = 8192, .first_s = 7.0, .first_execs = 800,
                                .first = "/o/failures/failure-b.json"};
    x->sigs[0] = found;
    x->sigs[1] = known;
    x->failures.sigs = x->sigs;
    x->failures.n_sigs = 2;
    x->failures.files = 4;
    campaign_repro minimized = {.reproduced = true, .minimized = true, .bs_found = 300,
                                .bs_final = 1, .runs = 420, .seconds = 0.25};
    campaign_repro baseline_knows = {.reproduced = true, .known = true, .bs_found = 2,
                                     .bs_final = 1};
    x->repros[0] = minimized;
    x->repros[1] = baseline_knows;
    snprintf(x->repros[0].path, sizeof x->repros[0].path,
             "/o/repros/decode.unclassified.cu_seqlens_k.json");
    campaign_summary sum = {.setup = &x->setup, .failures = &x->failures, .repros = x->repros,
                            .elapsed_s = 60.2, .execs = 1234567, .coverage = 812, .corpus = 310,
                            .restarts = 3, .exit_code = 1};
    x->sum = sum;
}

/* The summary as text (free it). */
static char *summary_text(const campaign_summary *sum) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    campaign_summary_print(out, sum, 0);
    fclose(out);
    return text;
}

static void test_summary_findings(void) {
    static summary_fixture x;
    summary_fixture_init(&x);
    CHECK_EQ_I64(campaign_summary_new(&x.sum), 1);
    char *text = summary_text(&x.sum);
    CHECK_STR_CONTAINS(text, "gmfuzz fuzz: libfuzzer, cpu backend, live comparison, 2 jobs, "
                             "60 s budget\n");
    CHECK_STR_CONTAINS(text, "ran 60.2 s: 1234567 execs (1.23M), 20.5k exec/s, coverage 812, "
                             "corpus 310 units, 3 restarts\n");
    CHECK_STR_CONTAINS(text, "found 1 new signature (1 of 2 signatures; 4 failing inputs):\n");
    CHECK_STR_CONTAINS(text, "  signature decode|unclassified|cu_seqlens_k: 3 inputs, first after "
                             "1.50 s and 900 execs\n");
    CHECK_STR_CONTAINS(text, "    repro: /o/repros/decode.unclassified.cu_seqlens_k.json (bs 300 "
                             "-> 1, minimized, 420 runs, 0.25 s)\n");
    CHECK_STR_CONTAINS(text, "7.00 s and 800 execs (known to the baseline)\n");
    CHECK_STR_CONTAINS(text, "  exit 1: new signatures found\n");
    CHECK(strstr(text, "without saving a failure") == NULL);
    CHECK(strstr(text, "more signatures") == NULL);
    free(text);
    /* The screen version: at most so many signatures, then a count. */
    char *screen = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&screen, &len);
    campaign_summary_print(out, &x.sum, 1);
    fclose(out);
    CHECK_STR_CONTAINS(screen, "  signature decode|unclassified|cu_seqlens_k: ");
    CHECK(strstr(screen, "decode|negative_token_rounding|page_table") == NULL);
    CHECK_STR_CONTAINS(screen, "  ... and 1 more signature: all of them are in /o/summary.txt\n");
    free(screen);
}

static void test_summary_crashes_and_nothing(void) {
    static summary_fixture x;
    summary_fixture_init(&x);
    x.sum.unsaved_crashes = 2;
    x.sum.crash_note = "job-1, killed by signal 11: ==7== ERROR: libFuzzer: deadly signal";
    char *text = summary_text(&x.sum);
    CHECK_STR_CONTAINS(text, "  2 runs of the target failed without saving a failure (inputs in "
                             "/o/artifacts/); last: job-1, killed by signal 11: ==7== ERROR: "
                             "libFuzzer: deadly signal\n");
    free(text);
    x.sum.unsaved_crashes = 0;
    x.failures.n_sigs = 0;
    x.sum.exit_code = 0;
    text = summary_text(&x.sum);
    CHECK_STR_CONTAINS(text, "  found nothing new\n");
    CHECK_STR_CONTAINS(text, "  exit 0: nothing new\n");
    free(text);
}

/* ---- what was checked ---------------------------------------------------- */

/* A running job whose target started at `started` and last answered at
 * `answered` (campaign clock). */
static campaign_worker checked_job(const char *name, double started, double answered) {
    campaign_worker w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "%s", name);
    w.proc.running = true;
    w.stats.target_started = true;
    w.started_s = started;
    w.target_started_s = started;
    w.answer_seen_s = answered;
    return w;
}

/* The problem of a campaign of `n` jobs that checked cases, judged at 40 s. */
static void checked_problem(const campaign_worker *jobs, int n, char *out, size_t size) {
    campaign_checked_wait wait;
    memset(&wait, 0, sizeof wait);
    for (int i = 0; i < n; i++) {
        campaign_checked_note(&wait, &jobs[i], 40.0);
    }
    campaign_target_tally tally = {.checked = 1000, .answered = 900, .counted_runs = 1};
    campaign_checked_facts f = {.target = &tally, .execs = 1000, .workers = jobs, .n_workers = n,
                                .budget_s = 40, .budget_ended = true, .external = true};
    char in_flight[256];
    campaign_checked_judge(&f, &wait, out, size, in_flight, sizeof in_flight);
}

static void test_checked_waits(void) {
    char problem[1024];
    /* One job that waited 30 of the 38 s its target had: the problem. */
    campaign_worker one = checked_job("job-0", 2.0, 10.0);
    checked_problem(&one, 1, problem, sizeof problem);
    CHECK_STR_CONTAINS(problem, "most of the budget went into one unanswered wait: job-0 had "
                                "waited 30.0 s of the 38.0 s its target had");
    /* One of sixteen jobs compiling a wide kernel while fifteen check
     * cases (the H200's cold campaigns): no problem. */
    campaign_worker many[16];
    many[0] = checked_job("job-0", 2.0, 10.0);
    for (int i = 1; i < 16; i++) {
        many[i] = checked_job("job-x", 2.0, 39.5);
    }
    checked_problem(many, 16, problem, sizeof problem);
    CHECK(problem[0] == '\0');
    /* Twelve of sixteen waiting: most of the jobs' time. */
    for (int i = 1; i < 12; i++) {
        many[i] = checked_job("job-y", 2.0, 12.0);
    }
    checked_problem(many, 16, problem, sizeof problem);
    CHECK_STR_CONTAINS(problem, "most of the jobs' time went into unanswered waits: 12 of 16 "
                                "jobs were waiting on their target when the budget ended, 338.0 s "
                                "of the 608.0 s their targets had since their start-ups (the "
                                "longest: job-0, 30.0 s)");
    /* Waits under 5 s are the jobs' rhythm, however many. */
    for (int i = 0; i < 16; i++) {
        many[i] = checked_job("job-z", 30.0, 35.5);
    }
    checked_problem(many, 16, problem, sizeof problem);
    CHECK(problem[0] == '\0');
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: test_campaign WORK_DIR DATA_DIR KNOWN_JSON\n");
        return 2;
    }
    work_dir = argv[1];
    data_dir = argv[2];
    known_json = argv[3];
    mkdir(work_dir, 0777);
    GM_RUN(test_log_follow);
    GM_RUN(test_proc);
    GM_RUN(test_lock);
    GM_RUN(test_progress);
    GM_RUN(test_failures_scan);
    GM_RUN(test_campaign_baseline);
    GM_RUN(test_slug);
    GM_RUN(test_summary_findings);
    GM_RUN(test_summary_crashes_and_nothing);
    GM_RUN(test_checked_waits);
    GM_TEST_END();
}
