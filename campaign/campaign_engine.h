/* campaign_engine: how each engine is run and read, as one table of traits
 * indexed by the engine (campaign_engine_of). Every other file asks the
 * table; none tests the engine kind. A new engine is a row here, its
 * campaign_<engine>.c (command line, output), its stats reader
 * (campaign_stats.c) and its entry point in fuzz/.
 *
 *   libFuzzer  N independent jobs on one shared corpus folder (-reload
 *              picks up each other's units). A target saves each new
 *              signature once and goes on (GMFUZZ_KEEP_GOING=1); with
 *              --abort-on-failure it aborts at each failure instead (the
 *              engine records a crash). A job that ends early for any
 *              reason (that abort, a crash, out of memory) is restarted
 *              with the time (and --runs budget) left, on a baseline that
 *              now lists what was found, so it goes on looking for new
 *              ones. Stats come from each job's status lines.
 *   AFL++      one main instance (-M main) and N-1 secondaries (-S sec-K)
 *              on DIR/afl, with the dictionary; AFL++ itself carries on
 *              after a crash. Stats come from each fuzzer_stats file, which
 *              AFL++ 4 rewrites once a minute: its live numbers lag.
 *   sweep      `gmfuzz sweep-job` processes (this very binary): generated
 *              cases in batches, libFuzzer's status lines, restarted as
 *              libFuzzer's jobs are.
 *
 * The environment of every target is the job settings table (fuzz.h,
 * fuzz/fuzz_settings.def); GMFUZZ_STRICT_BASELINE is always 0 there:
 * --strict-baseline is a baseline with nothing known, so that signatures
 * found are still known to restarted jobs (campaign_baseline.h).
 */
#ifndef CAMPAIGN_ENGINE_H
#define CAMPAIGN_ENGINE_H

#include <stdbool.h>

#include "campaign_argv.h"
#include "campaign_setup.h"
#include "campaign_worker.h"

/* Whether an engine's jobs say when their target started and how much it
 * answered (fuzz.h's stat lines). */
typedef enum {
    CAMPAIGN_COUNTS_NEVER,     /* another program's output */
    CAMPAIGN_COUNTS_OWN_BUILD, /* when the binary is the one this tree built (no --engine-binary) */
    CAMPAIGN_COUNTS_ALWAYS,    /* the jobs are gmfuzz itself */
} campaign_engine_counts;

#define CAMPAIGN_ENGINE_BINARIES 2

typedef struct {
    const char *name;  /* --engine NAME, campaign.json, the summary */
    const char *alias; /* another name --engine takes; NULL: none */
    /* The command line for (re)starting `w` with `time_left_s` seconds left. */
    void (*argv)(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                 campaign_argv *argv);
    void (*env)(campaign_argv *env); /* the engine's own environment; NULL: none */
    void (*refresh)(const campaign_setup *s, campaign_worker *w, double now_s);
    /* Whether a run that just ended runs again; NULL: never (runs to the end). */
    bool (*restarts)(const campaign_setup *s, const campaign_worker *w);
    /* The target binaries looked for, best first, into names; their count.
     * NULL: the jobs are this gmfuzz binary. */
    int (*binaries)(const campaign_options *o, char names[][64]);
    /* The error when none is found: how to build one. */
    bool (*missing)(const char *name, const char *looked, gm_error *err);
    const char *binary_mark; /* a string the binary must contain (instrumentation); NULL: none */
    const char *first_name;  /* worker 0's name; NULL: name_prefix as for the others */
    const char *name_prefix; /* worker K's name: PREFIX + K */
    bool corpus_folder;      /* units are counted in DIR/corpus; else the largest queue */
    bool cold_start;         /* refuses an empty corpus: one tiny input is written */
    bool hubs;               /* target hubs serve its jobs (AFL++ forks the target per input) */
    bool takes_runs;         /* --runs means something */
    bool runs_are_cases;     /* --runs/--cases is the case budget the checked facts judge */
    bool pow2_reports;       /* status lines at powers of two (campaign_worker_exec_idle) */
    bool reports_late;       /* says nothing for its first minute: counts judged once it spoke */
    bool retire_quick;       /* one quick end retires the worker (it would only fail again) */
    campaign_engine_counts counts;
} campaign_engine_traits;

/* The row of `e`. */
const campaign_engine_traits *campaign_engine_of(campaign_engine e);

/* The engine a name or alias names; false when none does. */
bool campaign_engine_from_name(const char *name, campaign_engine *out);

/* The command line for (re)starting `w` with `time_left_s` seconds left. */
void campaign_engine_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                          campaign_argv *argv);

/* The job settings and the engine's own environment, for every engine process. */
void campaign_engine_env(const campaign_setup *s, campaign_argv *env);

/* Reads what `w` reported since the last call. */
void campaign_engine_refresh(const campaign_setup *s, campaign_worker *w, double now_s);

/* Whether a run of `w` that just ended should run again (time and budget
 * permitting): libFuzzer jobs end at every failure; AFL++ runs to the end. */
bool campaign_engine_restarts(const campaign_setup *s, const campaign_worker *w);

/* Units in the campaign's corpus. */
uint64_t campaign_engine_corpus(const campaign_setup *s, const campaign_worker *workers, int n);

#endif
