/* campaign_run: runs the engines of a prepared campaign until its time is
 * up, every job is done, a signal arrives, or (--stop-on-new) a new
 * signature is found; keeps them going meanwhile (restarts, the campaign
 * baseline), reports progress, and stops them cleanly at the end. */
#ifndef CAMPAIGN_RUN_H
#define CAMPAIGN_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "campaign_argv.h"
#include "campaign_checked.h"
#include "campaign_failures.h"
#include "campaign_hub.h"
#include "campaign_setup.h"
#include "campaign_worker.h"

/* One run of a job that ended during the campaign, and why. */
typedef struct {
    char job[32];
    unsigned run;              /* 1: its first run */
    double at_s;
    char cause[320];           /* "killed by signal 9 (failed without saving a failure)" */
    bool restarted;
} campaign_run_end;

/* Run ends kept for the record (the first ones; `restarts` counts all). */
#define CAMPAIGN_RUN_ENDS_KEPT 64

typedef struct {
    campaign_setup *setup;
    campaign_worker *workers;
    int n_workers;
    campaign_failures failures;
    campaign_argv env;
    campaign_hubs hubs;        /* GPU targets: the processes that own the target */
    double elapsed_s;          /* when the engines were stopped */
    uint64_t execs;            /* final totals */
    uint64_t coverage;
    uint64_t corpus;
    unsigned restarts;
    campaign_target_tally target; /* what an external target did (all runs) */
    unsigned unsaved_crashes;  /* runs that failed without saving a failure */
    char crash_note[256];      /* the last of them: job, how, its log's last line */
    bool interrupted;
    bool stopped_on_new;       /* --stop-on-new ended it at a new signature */
    bool unsaved;              /* a job could not save a finding: the campaign ended */
    campaign_checked_wait wait; /* the longest wait on the target when it ended */
    bool scan_backlog;         /* failure files may be waiting to be read */
    bool baseline_dirty;       /* signatures found since DIR/baseline.json was written */
    campaign_run_end ends[CAMPAIGN_RUN_ENDS_KEPT];
    size_t n_ends;
    char problem[768];         /* infrastructure trouble; "" when none */
} campaign_run;

bool campaign_run_init(campaign_run *r, campaign_setup *s);
void campaign_run_free(campaign_run *r);

/* Runs the campaign; false when no engine could be kept running (problem
 * says why). Failures found are in r->failures either way. */
bool campaign_run_all(campaign_run *r);

#endif
