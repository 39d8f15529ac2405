#include "campaign_placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"

void campaign_placement_note(campaign_placement *p, const campaign_hubs *hubs, pid_t pid) {
    if (p->n_runs >= CAMPAIGN_PLACEMENT_RUNS_KEPT) {
        return;
    }
    campaign_placement_run *r = &p->runs[p->n_runs++];
    memset(r, 0, sizeof *r);
    r->pid = pid;
    /* The harness's own rule (fuzz/fuzz_harness.c): hub K = pid mod N. */
    r->hub = hubs != NULL && hubs->n > 0 ? (int)(pid % hubs->n) : -1;
    if (r->hub >= 0) {
        memcpy(r->gpu, hubs->gpus[r->hub], sizeof r->gpu);
    }
}

/* A device name as the record has it: its number when it is one
 * (CUDA_VISIBLE_DEVICES may also name a GPU by UUID), null for none. */
static cJSON *campaign_placement_gpu(const char *gpu) {
    if (gpu[0] == '\0') {
        return cJSON_CreateNull();
    }
    char *end = NULL;
    long id = strtol(gpu, &end, 10);
    return *end == '\0' ? gm_json_int(id) : cJSON_CreateString(gpu);
}

static cJSON *campaign_placement_run_json(const campaign_placement_run *r) {
    cJSON *item = cJSON_CreateObject();
    if (item == NULL) {
        return NULL;
    }
    bool ok = cJSON_AddItemToObject(item, "pid", gm_json_int(r->pid)) &&
              cJSON_AddItemToObject(item, "hub",
                                    r->hub >= 0 ? gm_json_int(r->hub) : cJSON_CreateNull()) &&
              cJSON_AddItemToObject(item, "gpu", campaign_placement_gpu(r->gpu));
    if (!ok) {
        cJSON_Delete(item);
        return NULL;
    }
    return item;
}

/* "pids" and "runs", in the order the runs started. */
static bool campaign_placement_runs(cJSON *job, const campaign_placement *p) {
    cJSON *pids = cJSON_AddArrayToObject(job, "pids");
    cJSON *runs = cJSON_AddArrayToObject(job, "runs");
    bool ok = pids != NULL && runs != NULL;
    for (unsigned k = 0; ok && k < p->n_runs; k++) {
        cJSON *run = campaign_placement_run_json(&p->runs[k]);
        ok = cJSON_AddItemToArray(pids, gm_json_int(p->runs[k].pid)) && run != NULL &&
             cJSON_AddItemToArray(runs, run);
        if (!ok) {
            cJSON_Delete(run);
        }
    }
    return ok;
}

cJSON *campaign_placement_json(const campaign_placement *p, int index, const char *name,
                               const char *engine) {
    cJSON *job = cJSON_CreateObject();
    bool ok = job != NULL && cJSON_AddItemToObject(job, "job", gm_json_int(index)) &&
              cJSON_AddStringToObject(job, "name", name) != NULL &&
              cJSON_AddStringToObject(job, "engine", engine) != NULL &&
              campaign_placement_runs(job, p);
    if (!ok) {
        cJSON_Delete(job);
        return NULL;
    }
    return job;
}
