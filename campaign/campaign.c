/* campaign: a campaign from its options to its exit code (campaign.h). */
#include "campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign_engine.h"
#include "campaign_minimizer.h"
#include "campaign_options.h"
#include "campaign_reap.h"
#include "campaign_record.h"
#include "campaign_report.h"
#include "campaign_repro.h"
#include "campaign_run.h"
#include "campaign_setup.h"
#include "campaign_signal.h"
#include "campaign_summary.h"
#include "gm_file.h"

/* One reproducer per signature, made in child processes
 * (campaign_minimizer.h); NULL (and a note in `problem`) when the backend
 * could not be opened or failed. */
static campaign_repro *campaign_fuzz_repros(const campaign_setup *s, const campaign_failures *f,
                                       char *problem, size_t problem_size) {
    campaign_repro *repros = calloc(f->n_sigs + 1, sizeof *repros);
    size_t skipped = 0;
    if (repros == NULL) {
        snprintf(problem, problem_size, "no reproducers: out of memory");
        return NULL;
    }
    if (!campaign_minimizer_run(s, f, repros, &skipped, problem, problem_size)) {
        free(repros);
        return NULL;
    }
    return repros;
}

static int campaign_fuzz_exit_code(const campaign_summary *sum, bool ran, bool unsaved) {
    if (unsaved) {
        return CAMPAIGN_EXIT_UNSAVED; /* before "new": what was found is incomplete */
    }
    if (campaign_summary_new(sum) > 0) {
        return CAMPAIGN_EXIT_FINDING;
    }
    return ran && sum->problem == NULL ? CAMPAIGN_EXIT_OK : CAMPAIGN_EXIT_INFRA;
}

/* DIR/summary.txt, whole or not at all (gm_file_write_atomic); false
 * (said on stderr) when it could not be written. */
static bool campaign_fuzz_write_summary(const campaign_summary *sum) {
    char path[CAMPAIGN_PATH_MAX + 16];
    char *text = NULL;
    size_t len = 0;
    gm_error err = {0};
    snprintf(path, sizeof path, "%s/summary.txt", sum->setup->dir);
    FILE *f = open_memstream(&text, &len);
    if (f != NULL) {
        campaign_summary_print(f, sum, 0);
    }
    bool ok = f != NULL && fclose(f) == 0 && gm_file_write_atomic(path, text, len, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz fuzz: cannot write %s: %s\n", path,
                err.msg[0] ? err.msg : "out of memory");
    }
    free(text);
    return ok;
}

static void campaign_fuzz_report(campaign_summary *sum) {
    campaign_summary_print(stdout, sum, CAMPAIGN_SUMMARY_SCREEN_SIGNATURES);
    campaign_fuzz_write_summary(sum);
}

/* Adds `what` to the summary's problem (kept in `buf`). */
static void campaign_fuzz_add_problem(campaign_summary *sum, const char *what, char *buf,
                                 size_t size) {
    char old[1024];
    snprintf(old, sizeof old, "%s", sum->problem != NULL ? sum->problem : "");
    snprintf(buf, size, "%s%s%s", old, old[0] ? "; " : "", what);
    sum->problem = buf;
}

/* How the campaign ended goes into campaign.json, then the reports are
 * written from the folder. summary.txt and the reproducers are on disk
 * before the reports are tried, so a report that fails loses nothing: it
 * is an infrastructure problem (exit 4 unless something new was found). */
static void campaign_fuzz_record(campaign_summary *sum, bool ran, bool unsaved, char *html,
                            size_t html_size, char *problem, size_t problem_size) {
    gm_error err = {0};
    char what[GM_ERROR_MSG_MAX + 32];
    /* The space kept since the start (campaign_record.h) is given back
     * now: on a full disk, the record and the summary still fit. */
    campaign_record_release_reserve(sum->setup);
    if (!campaign_record_end(sum, &err)) {
        snprintf(what, sizeof what, "campaign record: %s", err.msg);
        campaign_fuzz_add_problem(sum, what, problem, problem_size);
        sum->exit_code = campaign_fuzz_exit_code(sum, ran, unsaved);
    }
    if (!campaign_fuzz_write_summary(sum)) {
        campaign_fuzz_add_problem(sum, "summary.txt could not be written", problem, problem_size);
        sum->exit_code = campaign_fuzz_exit_code(sum, ran, unsaved);
        campaign_record_end(sum, &err);
    }
    fprintf(stderr, "gmfuzz fuzz: writing the reports\n");
    if (campaign_report_write(sum->setup, html, html_size, &err)) {
        sum->report = html;
        return;
    }
    snprintf(what, sizeof what, "reports: %s", err.msg);
    campaign_fuzz_add_problem(sum, what, problem, problem_size);
    sum->exit_code = campaign_fuzz_exit_code(sum, ran, unsaved);
    campaign_record_end(sum, &err);
}

/* Whether the campaign checked what it was asked to (campaign_checked.h):
 * the problem into `out` ("" when none), the call in flight at the end into
 * `in_flight`. */
static void campaign_fuzz_checked(const campaign_run *run, char *out, size_t size,
                                  char *in_flight, size_t in_flight_size) {
    const campaign_setup *s = run->setup;
    harness_target_spec t;
    gm_error ignored = {0};
    campaign_checked_facts f = {
        .target = &run->target,
        .execs = run->execs,
        .workers = run->workers,
        .n_workers = run->n_workers,
        .cases = campaign_engine_of(s->opt.engine)->runs_are_cases ? s->opt.runs : 0,
        .budget_s = s->opt.time_s,
        .budget_ended = !run->interrupted && !run->stopped_on_new && !run->unsaved,
        .external = campaign_options_target(&s->opt, &t, &ignored) &&
                    harness_target_is_external(&t),
    };
    campaign_checked_judge(&f, &run->wait, out, size, in_flight, in_flight_size);
}

/* The problems of the run, of what it checked and of its reproducers, in
 * one sentence (kept in `buf`); NULL when there are none. */
static const char *campaign_fuzz_problems(const char *run, const char *checked,
                                          const char *repros, char *buf, size_t size) {
    const char *parts[] = {run, checked, repros};
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        size_t len = strlen(buf);
        if (parts[k][0] != '\0') {
            snprintf(buf + len, size - len, "%s%s", len > 0 ? "; " : "", parts[k]);
        }
    }
    return buf[0] != '\0' ? buf : NULL;
}

/* Runs a prepared campaign to its end and reports it. */
static int campaign_fuzz_campaign(campaign_setup *s) {
    campaign_run run;
    char repro_problem[768] = "", problem[2048] = "", html[CAMPAIGN_PATH_MAX + 16] = "";
    char checked[1024] = "", in_flight[256] = "", problems[2048] = "";
    fprintf(stderr, "gmfuzz fuzz: %s, %d job%s, %.0f s: %s\ngmfuzz fuzz: output in %s\n",
            campaign_engine_name(s->opt.engine), s->opt.jobs, s->opt.jobs == 1 ? "" : "s",
            s->opt.time_s, s->target, s->dir);
    campaign_signal_install(true);
    bool ran = campaign_run_init(&run, s) && campaign_run_all(&run);
    /* The jobs and hubs are stopped: what is left below us is left behind. */
    unsigned left_behind = campaign_reap_leftovers();
    campaign_fuzz_checked(&run, checked, sizeof checked, in_flight, sizeof in_flight);
    /* The handlers stay: a second Ctrl-C during the minimization skips
     * what is left of it (every failure is on disk already), and the
     * record and reports are still written. */
    campaign_failures_sort(&run.failures);
    campaign_repro *repros = campaign_fuzz_repros(s, &run.failures, repro_problem,
                                             sizeof repro_problem);
    left_behind += campaign_reap_leftovers(); /* and below the minimizers */
    campaign_summary sum = {.setup = s,
                            .failures = &run.failures,
                            .repros = repros,
                            .elapsed_s = run.elapsed_s,
                            .execs = run.execs,
                            .coverage = run.coverage,
                            .corpus = run.corpus,
                            .restarts = run.restarts,
                            .target = run.target,
                            .unsaved_crashes = run.unsaved_crashes,
                            .crash_note = run.crash_note,
                            .interrupted = run.interrupted,
                            .ends = run.ends,
                            .n_ends = run.n_ends,
                            .workers = run.workers,
                            .n_workers = run.n_workers,
                            .in_flight = in_flight[0] ? in_flight : NULL,
                            .left_behind = left_behind};
    sum.problem = campaign_fuzz_problems(run.problem, checked, repro_problem, problems,
                                         sizeof problems);
    sum.exit_code = campaign_fuzz_exit_code(&sum, ran, run.unsaved);
    campaign_fuzz_record(&sum, ran, run.unsaved, html, sizeof html, problem, sizeof problem);
    campaign_fuzz_report(&sum);
    campaign_signal_install(false);
    free(repros);
    campaign_run_free(&run);
    return sum.exit_code;
}

int campaign_fuzz(const campaign_options *o, const char *name) {
    campaign_setup *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return CAMPAIGN_EXIT_INFRA;
    }
    int rc = CAMPAIGN_EXIT_OK;
    gm_error err = {0};
    if (!campaign_reap_adopt_orphans()) {
        fprintf(stderr, "gmfuzz %s: warning: cannot become a child subreaper: processes a "
                        "target starts in a session of their own may outlive the campaign\n",
                name);
    }
    if (!campaign_setup_prepare(s, o, &rc, &err)) {
        fprintf(stderr, "gmfuzz %s: %s\n", name, err.msg);
    } else {
        rc = campaign_fuzz_campaign(s);
    }
    campaign_setup_free(s);
    free(s);
    return rc;
}
