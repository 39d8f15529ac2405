#include "campaign_run.h"

#include <math.h>
#include <signal.h>
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
#include "fuzz.h"

/* The longest the loop sleeps: how late a job's end may be seen when no
 * SIGCHLD wakes it. Deadlines (samples, the budget) wake it sooner. */
#define CAMPAIGN_TICK_MS 100
/* A run that ends sooner than this without saving a failure did not get
 * going; this many in a row and the job is given up. */
#define CAMPAIGN_QUICK_S 5.0
#define CAMPAIGN_QUICK_LIMIT 3
/* How long engines get to write their final stats after SIGINT: short,
 * so that Ctrl-C stops a campaign within a second. */
#define CAMPAIGN_STOP_GRACE_MS 600
/* New failure files read per tick, and the time that may take, so that a
 * burst of them cannot hold up the loop: the rest are read at the next
 * ticks. */
#define CAMPAIGN_SCAN_BATCH 32
#define CAMPAIGN_SCAN_BUDGET_S 0.03
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
    gm_error err = {0};
    if (!campaign_hubs_start(&r->hubs, s, &r->env, &err)) {
        snprintf(r->problem, sizeof r->problem, "%s", err.msg);
        return false;
    }
    /* A folder used before: its failures count, and are known to the jobs. */
    campaign_failures_scan(&r->failures, s->failures, s->start);
    return campaign_run_write_baseline(r);
}

void campaign_run_free(campaign_run *r) {
    campaign_hubs_stop(&r->hubs);
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
    if (r->baseline_dirty && campaign_run_write_baseline(r)) {
        r->baseline_dirty = false; /* the job starts knowing every signature found */
    }
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
        campaign_placement_note(&w->placement, &r->hubs, w->proc.pid);
        w->starts++;
        w->started_s = now;
        w->failures_at_start = r->failures.files;
        w->killed = CAMPAIGN_WORKER_ALIVE;
        campaign_progress_start(&w->progress, now);
    }
    campaign_argv_free(&argv);
}

/* Why a run ended, in words: what the process said (exit status or
 * signal) and what that means for the campaign. */
static void campaign_run_cause(const campaign_run *r, const campaign_worker *w, bool saved,
                               char *out, size_t size) {
    char how[64];
    campaign_proc_describe(&w->proc, how, sizeof how);
    if (w->killed == CAMPAIGN_WORKER_STALLED) {
        snprintf(out, size, "%s (stalled: no output and no CPU time for %.0f s; killed by "
                            "the driver)",
                 how, r->setup->opt.stall_s);
        return;
    }
    if (w->killed == CAMPAIGN_WORKER_NO_PROGRESS) {
        snprintf(out, size, "%s (no_progress: its execution count stood at %llu for %.0f s "
                            "past its next report, while it printed or used CPU; killed by the "
                            "driver)",
                 how, (unsigned long long)w->stats.execs, r->setup->opt.stall_s);
        return;
    }
    const char *why = w->proc.exited && w->proc.code == 0 ? "its runs or time were done"
                      : saved && r->setup->opt.abort_on_failure ? "stopped at a failure it saved"
                                                                : "crashed or was killed";
    snprintf(out, size, "%s (%s)", how, why);
}

/* The cause goes into the job's log and into the campaign's record. */
static void campaign_run_record_end(campaign_run *r, const campaign_worker *w, double now,
                                    const char *cause, bool again) {
    FILE *log = fopen(w->log_path, "a");
    if (log != NULL) {
        fprintf(log, "=== gmfuzz fuzz: run %u of %s ended at %.1f s: %s; %s\n", w->starts,
                w->name, now, cause, again ? "restarting it" : "not restarting it");
        fclose(log);
    }
    if (r->n_ends < CAMPAIGN_RUN_ENDS_KEPT) {
        campaign_run_end *e = &r->ends[r->n_ends++];
        snprintf(e->job, sizeof e->job, "%s", w->name);
        snprintf(e->cause, sizeof e->cause, "%s", cause);
        e->at_s = now;
        e->run = w->starts;
        e->restarted = again;
    }
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
    snprintf(r->crash_note, sizeof r->crash_note, "%.31s, %.60s: %.120s", w->name, how, said);
}

/* `w` could not save a finding (fuzz.h): going on would lose the
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

/* `w`'s target did not finish its start-up within --target-start-timeout:
 * infrastructure, named as such; another run would wait as long again. */
static void campaign_run_no_start(campaign_run *r, campaign_worker *w) {
    char said[400];
    harness_target_spec t;
    gm_error ignored = {0};
    double limit = campaign_options_target(&r->setup->opt, &t, &ignored)
                       ? t.start_timeout_s
                       : HARNESS_TARGET_DEFAULT_START_TIMEOUT_S;
    campaign_log_last_line(w->log_path, said, sizeof said);
    snprintf(r->problem, sizeof r->problem,
             "target did not start within %g s (--target-start-timeout): %s gave up on it; its "
             "log %.200s ends: %s",
             limit, w->name, w->log_path, said);
    w->broken = true;
    w->done = true;
}

/* A run of `w` ended: count it, then restart it or retire it. */
static void campaign_run_ended(campaign_run *r, campaign_worker *w, double now) {
    campaign_engine_refresh(r->setup, w, now);
    if (w->proc.exited && w->proc.code == FUZZ_CHECK_EXIT_UNSAVED) {
        campaign_run_record_end(r, w, now, "exit 86 (a finding could not be saved)", false);
        campaign_worker_close_run(w);
        campaign_run_unsaved(r, w);
        return;
    }
    if (w->proc.exited && w->proc.code == HARNESS_EXIT_NO_START) {
        campaign_run_no_start(r, w); /* first: its log's last line is the job's own */
        campaign_run_record_end(r, w, now, "exit 87 (its target did not start in time)", false);
        campaign_target_tally_add(&r->target, &w->stats.target);
        campaign_worker_close_run(w);
        return;
    }
    bool saved = r->failures.files > w->failures_at_start;
    bool clean = w->proc.exited && w->proc.code == 0;
    bool quick = now - w->started_s < CAMPAIGN_QUICK_S && !saved && w->killed == CAMPAIGN_WORKER_ALIVE;
    w->quick_failures = quick ? w->quick_failures + 1 : 0;
    char how[64], cause[320];
    campaign_proc_describe(&w->proc, how, sizeof how);
    campaign_run_cause(r, w, saved, cause, sizeof cause);
    bool again = campaign_engine_restarts(r->setup, w) ||
                 w->killed != CAMPAIGN_WORKER_ALIVE; /* before the fold */
    bool retire = w->quick_failures >= CAMPAIGN_QUICK_LIMIT ||
                  (quick && campaign_engine_of(r->setup->opt.engine)->retire_quick);
    campaign_run_record_end(r, w, now, cause,
                            !retire && again && r->setup->opt.time_s - now >= 1.0);
    r->coverage = w->stats.coverage > r->coverage ? w->stats.coverage : r->coverage;
    campaign_target_tally_add(&r->target, &w->stats.target);
    campaign_worker_close_run(w);
    if (retire) {
        campaign_run_give_up(r, w, how);
        return;
    }
    if (!saved && !clean && !quick) {
        campaign_run_note_crash(r, w, w->killed != CAMPAIGN_WORKER_ALIVE ? cause : how);
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

/* Reads new failure files; true when a new signature appeared. `all`
 * (a job ended: it must restart on a baseline that lists what it found)
 * reads every one, else a bounded batch. The baseline is rewritten when
 * a job starts next, not here: a synced write is slow work. */
static bool campaign_run_scan(campaign_run *r, bool all) {
    size_t fresh = all ? campaign_failures_scan(&r->failures, r->setup->failures, r->setup->start)
                       : campaign_failures_scan_some(&r->failures, r->setup->failures,
                                                     r->setup->start, CAMPAIGN_SCAN_BATCH,
                                                     CAMPAIGN_SCAN_BUDGET_S, &r->scan_backlog);
    r->baseline_dirty |= fresh > 0;
    return fresh > 0;
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
    campaign_hubs_tick(&r->hubs, r->setup);
    bool fresh = (any_ended || scan_due || r->scan_backlog) && campaign_run_scan(r, any_ended);
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

/* Whether the jobs are gmfuzz's own, which say when their target started
 * and how much it answered (fuzz.h): a sweep's, or a libFuzzer target this
 * tree built (an engine binary given by hand may be anything). */
static bool campaign_run_jobs_say_counts(const campaign_setup *s) {
    campaign_engine_counts c = campaign_engine_of(s->opt.engine)->counts;
    return c == CAMPAIGN_COUNTS_ALWAYS || (c == CAMPAIGN_COUNTS_OWN_BUILD && s->opt.target == NULL);
}

/* Stops the engines and takes the final counts. */
static void campaign_run_finish(campaign_run *r) {
    size_t n = r->n_workers > 0 ? (size_t)r->n_workers : 0;
    double end = campaign_setup_elapsed(r->setup);
    for (int i = 0; campaign_run_jobs_say_counts(r->setup) && i < r->n_workers; i++) {
        if (r->workers[i].proc.running) {
            campaign_engine_refresh(r->setup, &r->workers[i], end);
            campaign_checked_note(&r->wait, &r->workers[i], end);
        }
    }
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
    campaign_hubs_stop(&r->hubs);
    r->elapsed_s = campaign_setup_elapsed(r->setup);
    campaign_status st;
    for (int i = 0; i < r->n_workers; i++) {
        campaign_engine_refresh(r->setup, &r->workers[i], r->elapsed_s);
        campaign_target_tally_add(&r->target, &r->workers[i].stats.target); /* the last runs' */
    }
    campaign_run_totals(r, r->elapsed_s, false, &st);
    campaign_run_scan(r, true);
    if (r->baseline_dirty) {
        campaign_run_write_baseline(r);
    }
    st.signatures = r->failures.n_sigs;
    st.failures = r->failures.files;
    campaign_record_sample(r->setup, &st, NULL); /* the exact totals, last */
    r->execs = st.execs;
    r->coverage = st.coverage;
    r->corpus = st.corpus;
}

/* Why `w` is to be killed now, if it is: no output and no CPU time for
 * --stall-timeout (stalled), or an execution count that stood still that
 * long past its next report (no_progress). AFL++ reports nothing for its
 * first minute: its count is judged once it has reported. */
static campaign_worker_kill campaign_run_verdict(const campaign_run *r, campaign_worker *w,
                                                 double now) {
    double limit = r->setup->opt.stall_s;
    double quiet = campaign_progress_idle(&w->progress, w->proc.pid, w->log_path, now);
    if (quiet >= limit) {
        return CAMPAIGN_WORKER_STALLED;
    }
    /* Only while it is busy (output or CPU time since the last look): a
     * job going quiet is on its way to `stalled`, the truer cause. */
    const campaign_engine_traits *t = campaign_engine_of(r->setup->opt.engine);
    if (quiet == 0.0 && (!t->reports_late || w->stats.have) &&
        campaign_worker_exec_idle(w, t->pow2_reports, now) >= limit) {
        return CAMPAIGN_WORKER_NO_PROGRESS;
    }
    return CAMPAIGN_WORKER_ALIVE;
}

/* Kills the jobs that made no progress for --stall-timeout; their end is
 * reaped, recorded and restarted by the next tick. */
static void campaign_run_watch(campaign_run *r, double now) {
    for (int i = 0; i < r->n_workers; i++) {
        campaign_worker *w = &r->workers[i];
        if (!w->proc.running || w->killed != CAMPAIGN_WORKER_ALIVE) {
            continue;
        }
        w->killed = campaign_run_verdict(r, w, now);
        if (w->killed != CAMPAIGN_WORKER_ALIVE) {
            campaign_proc_signal(&w->proc, SIGKILL);
        }
    }
}

/* Milliseconds from now to `deadline_s`, within [0, CAMPAIGN_TICK_MS]. */
static int campaign_run_sleep_ms(const campaign_run *r, double deadline_s) {
    double left = deadline_s - campaign_setup_elapsed(r->setup);
    if (left <= 0.0) {
        return 0;
    }
    double ms = left * 1000.0;
    return ms < CAMPAIGN_TICK_MS ? (int)ms + 1 : CAMPAIGN_TICK_MS;
}

/* The loop is driven by deadlines, never by waiting on a child or on
 * slow work: the k-th sample of stats.jsonl is taken at k seconds (taken
 * first when due, before the tick's other work), the budget ends the loop
 * on time, and a signal or a child that ended wakes the sleep at once
 * (campaign_signal.h). A sample more than a second late is skipped, not
 * made up in a burst. */
bool campaign_run_all(campaign_run *r) {
    bool tty = isatty(STDERR_FILENO) == 1;
    double status_every = tty ? 1.0 : 10.0, last_status = 0.0, last_scan = 0.0;
    double next_sample = CAMPAIGN_SAMPLE_S, budget = r->setup->opt.time_s;
    campaign_run_status(r, 0.0, tty, false); /* the charts start from 0 */
    double started = campaign_setup_elapsed(r->setup); /* target hubs took their start */
    for (int i = 0; i < r->n_workers; i++) {
        campaign_run_start(r, &r->workers[i], started);
    }
    for (;;) {
        double now = campaign_setup_elapsed(r->setup);
        r->interrupted = campaign_signal_received();
        if (r->interrupted || r->unsaved || now >= budget || campaign_run_all_done(r)) {
            break;
        }
        if (now >= next_sample) {
            bool print = now - last_status >= status_every;
            last_status = print ? now : last_status;
            campaign_run_status(r, now, tty, print);
            campaign_run_watch(r, now);
            next_sample += CAMPAIGN_SAMPLE_S;
            if (next_sample <= now) {
                next_sample = floor(now / CAMPAIGN_SAMPLE_S) * CAMPAIGN_SAMPLE_S +
                              CAMPAIGN_SAMPLE_S;
            }
        }
        bool scan_due = now - last_scan >= 1.0;
        last_scan = scan_due ? now : last_scan;
        if (campaign_run_tick(r, now, scan_due) && r->setup->opt.stop_on_new) {
            r->stopped_on_new = true;
            break;
        }
        campaign_signal_wait(
            campaign_run_sleep_ms(r, next_sample < budget ? next_sample : budget));
    }
    if (r->interrupted) {
        fprintf(stderr, "%sgmfuzz fuzz: interrupted: stopping the jobs (again: skip the "
                        "minimization)\n",
                tty ? "\n" : "");
    }
    campaign_run_finish(r);
    if (tty) {
        fputc('\n', stderr);
    }
    return !campaign_run_all_broken(r);
}
