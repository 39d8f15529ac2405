/* campaign_worker: one engine process slot of a campaign (a libFuzzer job,
 * an AFL++ main or secondary instance) across its restarts. */
#ifndef CAMPAIGN_WORKER_H
#define CAMPAIGN_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "campaign_log.h"
#include "campaign_placement.h"
#include "campaign_proc.h"
#include "campaign_progress.h"
#include "campaign_setup.h"
#include "campaign_stats.h"

/* Why the driver killed a run: `stalled`, no output and no CPU time;
 * `no_progress`, output or CPU time but an execution count that stood
 * still (a target spinning in a loop, printing a warning over and over). */
typedef enum {
    CAMPAIGN_WORKER_ALIVE,
    CAMPAIGN_WORKER_STALLED,
    CAMPAIGN_WORKER_NO_PROGRESS
} campaign_worker_kill;

typedef struct {
    int index;
    char name[32];                  /* job-0, main, sec-1, ... */
    char log_path[CAMPAIGN_PATH_MAX];
    campaign_proc proc;
    campaign_log log;               /* libFuzzer: its status lines */
    campaign_stats stats;           /* the current run */
    double stats_seen_s;            /* when stats last changed (campaign clock) */
    uint64_t execs_before;          /* executions of its finished runs */
    unsigned starts;
    unsigned quick_failures;        /* runs in a row that ended early, saving nothing */
    double started_s;               /* campaign clock at the current run's start */
    double target_started_s;        /* when its target was seen to have started (this run) */
    double answer_seen_s;           /* when its target was last seen to answer, or to have
                                     * started (this run; campaign_checked.h) */
    size_t failures_at_start;       /* failure files read when the run started */
    bool ended;                     /* its run just ended (campaign_run's tick) */
    bool done;                      /* will not run again */
    bool broken;                    /* gave up: it kept failing to run */
    campaign_progress progress;     /* output and CPU time of the current run */
    campaign_worker_kill killed;    /* why the driver killed the current run, if it did */
    campaign_placement placement;   /* each run's pid, hub and device, for the record */
} campaign_worker;

void campaign_worker_init(campaign_worker *w, const campaign_setup *s, int index);

/* The current run's executions per second: the engine's own figure, or,
 * while that is still 0 (libFuzzer's first second, and its jobs restart
 * often), the run's count over the time it took. */
double campaign_worker_rate(const campaign_worker *w);

/* Executions so far (finished runs + the current run). When `estimate`,
 * the current run's count is carried forward at its rate from when it was
 * last reported (libFuzzer reports at powers of two, and on news). */
uint64_t campaign_worker_execs(const campaign_worker *w, double now_s, bool estimate);

/* Seconds the current run's reported execution count has stood still
 * beyond the wait for its next report: libFuzzer reports at powers of two
 * (`pow2_reports`), so a healthy job at its rate reports again within
 * (next power of two - count) / rate; twice that is allowed. 0 while the
 * count moves. */
double campaign_worker_exec_idle(const campaign_worker *w, bool pow2_reports, double now_s);

/* Folds the current run into execs_before; called once the run ended and
 * its final stats were read. */
void campaign_worker_close_run(campaign_worker *w);

#endif
