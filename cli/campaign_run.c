#include "campaign_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign_baseline.h"
#include "campaign_engine.h"
#include "campaign_record.h"
#include "campaign_signal.h"
#include "campaign_status.h"
#include "fuzz_check.h"

#define CAMPAIGN_TICK_MS 100
/* A run that ends sooner than this without saving a failure did not get
 * going; this many in a row and the job is given up. */
#define CAMPAIGN_QUICK_S 5.0
#define CAMPAIGN_QUICK_LIMIT 3
/* How long engines get to write their final stats after SIGINT. */
#define CAMPAIGN_STOP_GRACE_MS 5000
/* Seconds between samples of stats.jsonl. */
#define CAMPAIGN_SAMPLE_S 1.0

/* Rewrites DIR/baseline.json with every signature found so far. */
static bool campaign_run_write_baseline(campaign_run *r) {
    campaign_setup *s = r->setup;
    gm_error err = {0};
    const char *source = s->baseline_src[0] != '\0' ? s->baseline_src : NULL;
    if (!campaign_baseline_write(source, &r->failures, s->dir, s->baseline_run, &err)) {
        snprintf(r->problem, sizeof r->problem, "%s", err.msg);
        return false;
    }
    return true;
}

bool campaign_run_init(campaign_run *r, campaign_setup *s) {
    memset(r, 0, sizeof *r);
    r->setup = s;
    r->n_workers = s->opt.jobs > 0 ? s->opt.jobs : 1;
    r->workers = calloc((size_t)(unsigned)r->n_workers, sizeof *r->workers);
    campaign_failures_init(&r->failures);
    campaign_argv_init(&r->env);
    if (r->workers == NULL) {
        snprintf(r->problem, sizeof r->problem, "out of memory for %d jobs", r->n_workers);
        return false;
    }
    for (int i = 0; i < r->n_workers; i++) {
        campaign_worker_init(&r->workers[i], s, i);
    }
    campaign_engine_env(s, &r->env);
    if (r->env.failed) {
        snprintf(r->problem, sizeof r->problem, "out of memory for the environment");
        return false;
    }
    /* A folder used before: its failures count, and are known to the jobs. */
    campaign_failures_scan(&r->failures, s->failures, s->start);
    return campaign_run_write_baseline(r);
}

void campaign_run_free(campaign_run *r) {
    free(r->workers);
    campaign_failures_free(&r->failures);
    campaign_argv_free(&r->env);
    r->workers = NULL;
}

/* Appends a line to the job's log, so the log says what each run was. */
static void campaign_run_log_start(const campaign_worker *w, campaign_argv *argv, double now) {
    FILE *log = fopen(w->log_path, "a");
    if (log == NULL) {
        return;
    }
    fprintf(log, "=== gmfuzz fuzz: run %u of %s at %.1f s:", w->starts + 1, w->name, now);
    for (size_t i = 0; i < argv->count; i++) {
        fprintf(log, " %s", argv->items[i]);
    }
    fputc('\n', log);
    fclose(log);
}

static void campaign_run_start(campaign_run *r, campaign_worker *w, double now) {
    campaign_argv argv;
    campaign_argv_init(&argv);
    campaign_engine_argv(r->setup, w, r->setup->opt.time_s - now, &argv);
    gm_error err = {0};
    campaign_run_log_start(w, &argv, now);
    if (argv.failed ||
        !campaign_proc_start(&w->proc, campaign_argv_items(&argv), r->env.items, w->log_path,
                             &err)) {
        snprintf(r->problem, sizeof r->problem, "%s: %s", w->name,
                 argv.failed ? "out of memory" : err.msg);
        w->broken = true;
        w->done = true;
    } else {
        w->starts++;
        w->started_s = now;
        w->failures_at_start = r->failures.files;
    }
    campaign_argv_free(&argv);
}

/* `w` keeps stopping at once: it is given up, and the problem says why. */
static void campaign_run_give_up(campaign_run *r, campaign_worker *w, const char *how) {
    char said[160];
    campaign_log_last_line(w->log_path, said, sizeof said);
    snprintf(r->problem, sizeof r->problem,
             "%s stopped within %.0f s without saving a failure (%s, %u time%s in a row); "
             "its log %.300s ends: %s",
             w->name, CAMPAIGN_QUICK_S, how, w->quick_failures, w->quick_failures == 1 ? "" : "s",
             w->log_path, said);
    w->broken = true;
    w->done = true;
}

/* A run that failed without saving a failure (a crash of the target, an
 * out-of-memory or timeout stop): counted for the summary. */
static void campaign_run_note_crash(campaign_run *r, const campaign_worker *w, const char *how) {
    char said[160];
    campaign_log_last_line(w->log_path, said, sizeof said);
    r->unsaved_crashes++;
    snprintf(r->crash_note, sizeof r->crash_note, "%s, %s: %.120s", w->name, how, said);
}

/* `w` could not save a finding (fuzz_check.h): going on would lose the
 * next ones too, so the campaign ends, with its own exit code. */
static void campaign_run_unsaved(campaign_run *r, campaign_worker *w) {
    char said[512];
    campaign_log_last_line(w->log_path, said, sizeof said);
    r->unsaved = true;
    snprintf(r->problem, sizeof r->problem,
             "%s could not save a finding in %.200s (disk full or not writable?): %.450s", w->name,
             r->setup->failures, said);
    w->done = true;
}

/* A run of `w` ended: count it, then restart it or retire it. */
static void campaign_run_ended(campaign_run *r, campaign_worker *w, double now) {
    campaign_engine_refresh(r->setup, w, now);
    if (w->proc.exited && w->proc.code == FUZZ_CHECK_EXIT_UNSAVED) {
        campaign_worker_close_run(w);
        campaign_run_unsaved(r, w);
        return;
    }
    bool saved = r->failures.files > w->failures_at_start;
    bool clean = w->proc.exited && w->proc.code == 0;
    bool quick = now - w->started_s < CAMPAIGN_QUICK_S && !saved;
    w->quick_failures = quick ? w->quick_failures + 1 : 0;
    char how[64];
    campaign_proc_describe(&w->proc, how, sizeof how);
    bool again = campaign_engine_restarts(r->setup, w); /* before the run is folded in */
    r->coverage = w->stats.coverage > r->coverage ? w->stats.coverage : r->coverage;
    r->target_crashed += w->stats.target_crashed;
    r->target_hung += w->stats.target_hung;
    campaign_worker_close_run(w);
    if (w->quick_failures >= CAMPAIGN_QUICK_LIMIT ||
        (quick && r->setup->opt.engine == CAMPAIGN_AFL)) {
        campaign_run_give_up(r, w, how);
        return;
    }
    if (!saved && !clean && !quick) {
        campaign_run_note_crash(r, w, how);
    }
    if (again && r->setup->opt.time_s - now >= 1.0) {
        r->restarts++;
        campaign_run_start(r, w, now);
    } else {
        w->done = true;
    }
}

/* Totals over the jobs; `estimate` carries libFuzzer's sparse counts
 * forward for the live line. */
static void campaign_run_totals(campaign_run *r, double now, bool estimate,
                                campaign_status *st) {
    memset(st, 0, sizeof *st);
    st->elapsed_s = now;
    st->budget_s = r->setup->opt.time_s;
    st->jobs = r->n_workers;
    for (int i = 0; i < r->n_workers; i++) {
        const campaign_worker *w = &r->workers[i];
        st->execs += campaign_worker_execs(w, now, estimate);
        if (w->proc.running) {
            st->jobs_running++;
            st->exec_per_sec += (uint64_t)campaign_worker_rate(w);
        }
        st->coverage = w->stats.coverage > st->coverage ? w->stats.coverage : st->coverage;
    }
    if (st->exec_per_sec == 0 && now >= 1.0) {
        /* Every job just (re)started: the campaign's average says more. */
        st->exec_per_sec = (uint64_t)((double)st->execs / now);
    }
    st->coverage = st->coverage > r->coverage ? st->coverage : r->coverage;
    r->coverage = st->coverage; /* a restarted job starts its count again */
    st->corpus = campaign_engine_corpus(r->setup, r->workers, r->n_workers);
    st->signatures = r->failures.n_sigs;
    st->failures = r->failures.files;
}

/* One sample a second into stats.jsonl, and the status line when `print`.
 * A sample that cannot be written costs the chart a point, not the
 * campaign its findings: it goes on. */
static void campaign_run_status(campaign_run *r, double now, bool tty, bool print) {
    for (int i = 0; i < r->n_workers; i++) {
        if (r->workers[i].proc.running) {
            campaign_engine_refresh(r->setup, &r->workers[i], now);
        }
    }
    campaign_status st;
    char line[256];
    campaign_run_totals(r, now, true, &st);
    campaign_record_sample(r->setup, &st, NULL);
    if (print) {
        campaign_status_format(&st, line, sizeof line);
        fprintf(stderr, tty ? "\r\033[K%s" : "%s\n", line);
        fflush(stderr);
    }
}

/* Reads new failure files; true when a new signature appeared. */
static bool campaign_run_scan(campaign_run *r) {
    if (campaign_failures_scan(&r->failures, r->setup->failures, r->setup->start) == 0) {
        return false;
    }
    campaign_run_write_baseline(r);
    return true;
}

/* One tick: reap the runs that ended, read new failures (so the baseline
 * lists them before a job restarts), restart or retire the ended jobs.
 * True when a new signature appeared. */
static bool campaign_run_tick(campaign_run *r, double now, bool scan_due) {
    bool any_ended = false;
    for (int i = 0; i < r->n_workers; i++) {
        campaign_worker *w = &r->workers[i];
        w->ended = w->proc.running && !campaign_proc_poll(&w->proc);
        any_ended |= w->ended;
    }
    bool fresh = (any_ended || scan_due) && campaign_run_scan(r);
    if (fresh && r->setup->opt.stop_on_new) {
        return true; /* the campaign ends: restart nothing */
    }
    for (int i = 0; i < r->n_workers; i++) {
        if (r->workers[i].ended) {
            r->workers[i].ended = false;
            campaign_run_ended(r, &r->workers[i], now);
        }
    }
    return fresh;
}

static bool campaign_run_all_done(const campaign_run *r) {
    for (int i = 0; i < r->n_workers; i++) {
        if (!r->workers[i].done) {
            return false;
        }
    }
    return true;
}

static bool campaign_run_all_broken(const campaign_run *r) {
    for (int i = 0; i < r->n_workers; i++) {
        if (!r->workers[i].broken) {
            return false;
        }
    }
    return true;
}

/* Stops the engines and takes the final counts. */
static void campaign_run_finish(campaign_run *r) {
    size_t n = r->n_workers > 0 ? (size_t)r->n_workers : 0;
    campaign_proc *procs = calloc(n + 1, sizeof *procs);
    for (int i = 0; procs != NULL && i < r->n_workers; i++) {
        procs[i] = r->workers[i].proc;
    }
    if (procs != NULL) {
        campaign_proc_stop_all(procs, r->n_workers, CAMPAIGN_STOP_GRACE_MS);
        for (int i = 0; i < r->n_workers; i++) {
            r->workers[i].proc = procs[i];
        }
    }
    free(procs);
    r->elapsed_s = campaign_setup_elapsed(r->setup);
    campaign_status st;
    for (int i = 0; i < r->n_workers; i++) {
        campaign_engine_refresh(r->setup, &r->workers[i], r->elapsed_s);
    }
    campaign_run_totals(r, r->elapsed_s, false, &st);
    campaign_run_scan(r);
    st.signatures = r->failures.n_sigs;
    st.failures = r->failures.files;
    campaign_record_sample(r->setup, &st, NULL); /* the exact totals, last */
    r->execs = st.execs;
    r->coverage = st.coverage;
    r->corpus = st.corpus;
}

bool campaign_run_all(campaign_run *r) {
    const struct timespec tick = {0, CAMPAIGN_TICK_MS * 1000L * 1000L};
    bool tty = isatty(STDERR_FILENO) == 1;
    double status_every = tty ? 1.0 : 10.0, last_status = 0.0, last_scan = 0.0;
    double last_sample = 0.0;
    campaign_run_status(r, 0.0, tty, false); /* the charts start from 0 */
    for (int i = 0; i < r->n_workers; i++) {
        campaign_run_start(r, &r->workers[i], 0.0);
    }
    for (;;) {
        double now = campaign_setup_elapsed(r->setup);
        r->interrupted = campaign_signal_received();
        if (r->interrupted || r->unsaved || now >= r->setup->opt.time_s ||
            campaign_run_all_done(r)) {
            break;
        }
        bool scan_due = now - last_scan >= 1.0;
        last_scan = scan_due ? now : last_scan;
        if (campaign_run_tick(r, now, scan_due) && r->setup->opt.stop_on_new) {
            break;
        }
        if (now - last_sample >= CAMPAIGN_SAMPLE_S) {
            bool print = now - last_status >= status_every;
            last_sample = now;
            last_status = print ? now : last_status;
            campaign_run_status(r, now, tty, print);
        }
        nanosleep(&tick, NULL);
    }
    campaign_run_finish(r);
    if (tty) {
        fputc('\n', stderr);
    }
    return !campaign_run_all_broken(r);
}
