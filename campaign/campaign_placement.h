/* campaign_placement: which job ran where, for campaign.json's "placement"
 * (docs/FORMATS.md).
 *
 * A job's placement is fixed when each of its runs starts: the process id,
 * the target hub that process talks to (the harness picks hub pid mod N,
 * fuzz/fuzz_harness.c, so a restarted job may move to another hub) and the
 * device that hub was pinned to (CUDA_VISIBLE_DEVICES of the hub, from
 * --gpus). Without hubs a job is pinned to nothing: it runs a CPU target,
 * or a GPU target on whatever device its environment gives it. It is
 * recorded at the start, not derived at the end, because the hubs are
 * stopped before the record is written. */
#ifndef CAMPAIGN_PLACEMENT_H
#define CAMPAIGN_PLACEMENT_H

#include <stdbool.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "campaign_hub.h"

/* Runs of one job kept for the record (its first ones; the job's restarts
 * counter and job_ends say how many there were). */
#define CAMPAIGN_PLACEMENT_RUNS_KEPT 32

/* One run of a job. */
typedef struct {
    pid_t pid;
    int hub;                            /* -1: the campaign ran no hubs */
    char gpu[CAMPAIGN_GPU_NAME_MAX];    /* the hub's device; "": pinned to none */
} campaign_placement_run;

/* Where one job's runs went. */
typedef struct {
    campaign_placement_run runs[CAMPAIGN_PLACEMENT_RUNS_KEPT];
    unsigned n_runs;                    /* kept, at most CAMPAIGN_PLACEMENT_RUNS_KEPT */
} campaign_placement;

/* Notes the run of process `pid` that just started, served by `hubs`. */
void campaign_placement_note(campaign_placement *p, const campaign_hubs *hubs, pid_t pid);

/* One job's entry of "placement": {"job", "name", "engine", "pids",
 * "runs": [{"pid", "hub", "gpu"}]}; NULL when out of memory. */
cJSON *campaign_placement_json(const campaign_placement *p, int index, const char *name,
                               const char *engine);

#endif
