/* campaign_summary: the one-screen account of a finished campaign, printed
 * on stdout and written, with every signature, to DIR/summary.txt. Its
 * lines are also meant for scripts: first "  bucket <key>: ..." lines, one
 * per bucket (triage_bucket.h), with its smallest reproducer; then
 * "  signature <sig>: ..." lines, one per signature, grouped by bucket, each
 * followed by its "    bucket: <key>" and "    repro: <path> (...)" lines. */
#ifndef CAMPAIGN_SUMMARY_H
#define CAMPAIGN_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "campaign_failures.h"
#include "campaign_repro.h"
#include "campaign_run.h"
#include "campaign_setup.h"

typedef struct {
    const campaign_setup *setup;
    const campaign_failures *failures;
    const campaign_repro *repros;  /* one per failures->sigs entry; NULL: none made */
    double elapsed_s;
    uint64_t execs;
    uint64_t coverage;
    uint64_t corpus;
    unsigned restarts;             /* engine processes restarted after a failure */
    campaign_target_tally target;  /* what an external target did */
    unsigned unsaved_crashes;      /* runs that failed without saving a failure */
    const char *crash_note;        /* the last of them */
    bool interrupted;              /* ended by Ctrl-C or SIGTERM */
    const campaign_run_end *ends;  /* job runs that ended during the campaign, and why */
    size_t n_ends;
    const campaign_worker *workers; /* each job's placement (campaign_placement.h) */
    int n_workers;
    const char *problem;           /* infrastructure trouble, or NULL */
    const char *in_flight;         /* a call (or a start-up) in flight when the budget
                                    * ended, in words (campaign_checked.h); NULL: none */
    unsigned left_behind;          /* processes still running below the campaign at its
                                    * end, ended by the driver (campaign_reap.h) */
    const char *report;            /* DIR/report.html once the reports are written */
    int exit_code;
} campaign_summary;

/* How many buckets are new (one of their signatures is); `all`, when not
 * NULL, gets how many buckets there are. */
size_t campaign_summary_new_buckets(const campaign_summary *s, size_t *all);

/* How many signatures are new: not known to the user's baseline. */
size_t campaign_summary_new(const campaign_summary *s);

/* Prints the summary; with `max_signatures` > 0 only that many signatures
 * in detail, then how many more there are (the screen version: the file
 * version lists them all). */
void campaign_summary_print(FILE *out, const campaign_summary *s, size_t max_signatures);

/* Signatures listed on the screen; summary.txt has them all. */
#define CAMPAIGN_SUMMARY_SCREEN_SIGNATURES 12

#endif
