/* campaign_setup: everything a campaign needs before its first job starts:
 * the output folder and its parts, the target, seeds, dictionary and
 * baseline, all resolved to paths that exist.
 *
 *   DIR/corpus/      the shared corpus, seeded from the seed corpus
 *   DIR/failures/    what the targets saved (never deleted)
 *   DIR/repros/      one minimized reproducer per signature, at the end
 *   DIR/logs/        each job's output
 *   DIR/artifacts/   libFuzzer's own crash files
 *   DIR/afl/         AFL++'s output folder
 *   DIR/baseline.json  the baseline the targets use (campaign_baseline.h)
 *   DIR/known.json   the user's baseline as the campaign judged by it
 *   DIR/campaign.json, DIR/stats.jsonl  how it ran (campaign_record.h)
 *   DIR/campaign.lock  held (flock) for the whole campaign (campaign_lock.h)
 *   DIR/summary.txt  the summary, at the end
 *   DIR/report.*     report.md, report.html, summary.json, junit.xml
 */
#ifndef CAMPAIGN_SETUP_H
#define CAMPAIGN_SETUP_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "campaign.h"
#include "campaign_lock.h"
#include "campaign_options.h"
#include "triage.h"
#include "gm_error.h"

#define CAMPAIGN_PATH_MAX PATH_MAX


typedef struct {
    campaign_options opt;
    char dir[CAMPAIGN_PATH_MAX];
    char corpus[CAMPAIGN_PATH_MAX];
    char failures[CAMPAIGN_PATH_MAX];
    char repros[CAMPAIGN_PATH_MAX];
    char logs[CAMPAIGN_PATH_MAX];
    char artifacts[CAMPAIGN_PATH_MAX];
    char afl_out[CAMPAIGN_PATH_MAX];
    char baseline_run[CAMPAIGN_PATH_MAX]; /* DIR/baseline.json */
    char target[CAMPAIGN_PATH_MAX];
    char seeds[CAMPAIGN_PATH_MAX];        /* "": a cold start */
    char dict[CAMPAIGN_PATH_MAX];         /* "": none */
    char baseline_src[CAMPAIGN_PATH_MAX]; /* "": none (--strict-baseline) */
    triage_baseline *baseline;            /* the user's, to check findings against */
    size_t seeded;                        /* seed files copied into the corpus */
    struct timespec start;                /* CLOCK_REALTIME, to compare with file times */
    struct timespec start_mono;           /* CLOCK_MONOTONIC, for the clock */
    campaign_lock lock;                   /* DIR/campaign.lock, held to the end */
    bool locked_out;                      /* another campaign holds it */
} campaign_setup;

/* Resolves and creates everything. On failure `*exit_code` says whose
 * fault it is (2: usage, 4: infrastructure, 5: the folder is locked by
 * another campaign) and err why. */
bool campaign_setup_prepare(campaign_setup *s, const campaign_options *o, int *exit_code,
                            gm_error *err);
void campaign_setup_free(campaign_setup *s);

/* Seconds since the campaign started. */
double campaign_setup_elapsed(const campaign_setup *s);

#endif
