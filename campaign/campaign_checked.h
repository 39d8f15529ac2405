/* campaign_checked: whether a campaign checked what it was asked to, so
 * that nothing is green that did not run (docs/FUZZING.md, "Exit codes").
 *
 * The jobs say how many inputs they checked and how many calls their
 * target answered (fuzz.h, "stat::gmfuzz_target_checked/answered"), and
 * when their target finished its start-up; the driver notes, when the
 * budget ends, how long each job had been waiting on its target since it
 * last answered (or since the job started, while the target was still
 * starting). A campaign is then an infrastructure failure (exit 4, the
 * reason in its problem) when
 *   - its jobs checked no input at all;
 *   - its target never answered a call (what was checked, the fused
 *     model alone checked);
 *   - `--cases N` was cut short by `--time`;
 *   - the jobs spent most of their time, since their targets started,
 *     waiting on calls that had not been answered when the budget ended
 *     (summed over the jobs: one job that compiles a wide kernel while
 *     fifteen others check cases is no campaign that checked too little).
 * A budget that ends while a call is in flight is said either way. */
#ifndef CAMPAIGN_CHECKED_H
#define CAMPAIGN_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "campaign_stats.h"
#include "campaign_worker.h"

/* A wait counts toward "most of the time" when it is at least this long
 * (the jobs say their counts once a second: shorter waits are their
 * rhythm, not a wait); the waits are most of the time past half of the
 * time the running jobs' targets had since their start-ups. */
#define CAMPAIGN_CHECKED_WAIT_MIN_S 5.0
/* A wait shorter than this at the end is not said at all: the counts come
 * once a second, so it may be no wait. */
#define CAMPAIGN_CHECKED_SAY_S 2.0

typedef struct {
    /* The longest wait of any running job, a start-up's too (the sentence
     * said at the end), and apart from it the longest of the started
     * jobs' waits that count toward "most of the time" (`waiter`). */
    char job[32];          /* the job that waited longest when the budget ended; "" none */
    double wait_s;         /* how long it had waited */
    double target_s;       /* the time its target had had since its start-up */
    bool starting;         /* its target had not finished its start-up */
    int jobs;              /* running jobs whose target had started */
    int waiting;           /* of them, those waiting at least CAMPAIGN_CHECKED_WAIT_MIN_S */
    double waited_s;       /* their waits, summed */
    char waiter[32];       /* of them, the one that waited longest */
    double waiter_s;       /* its wait */
    double had_s;          /* the time all `jobs` targets had since their start-ups, summed */
} campaign_checked_wait;

/* At the budget's end (`now`, campaign clock), before the jobs are
 * stopped: the wait of running job `w`, added to the sums of `c` and kept
 * as the longest when it is. */
void campaign_checked_note(campaign_checked_wait *c, const campaign_worker *w, double now);

typedef struct {
    const campaign_target_tally *target; /* every run's counts, summed */
    uint64_t execs;                      /* the engines' own count */
    const campaign_worker *workers;
    int n_workers;
    uint64_t cases;                      /* sweep: --cases N per job; 0: none */
    double budget_s;
    bool budget_ended;                   /* not interrupted, not ended at a first finding */
    bool external;                       /* the target runs outside gmfuzz (python:, lib:) */
} campaign_checked_facts;

/* The problem, in words, into `out` ("" when there is none); `in_flight`
 * gets the sentence about a call in flight at the end ("" when none was). */
void campaign_checked_judge(const campaign_checked_facts *f, const campaign_checked_wait *w,
                            char *out, size_t size, char *in_flight, size_t in_flight_size);

#endif
