/* campaign_hub: the target hubs of a campaign (harness/harness.h).
 *
 * A GPU target serves one process's synchronizations fast and many
 * processes' slowly (each holds a CUDA context; the GPU time-slices
 * between them). So, for a GPU target (builtin:cuda*, lib:, python: on
 * cuda) and the libFuzzer or sweep engine, the driver starts hubs before
 * the jobs (`--hubs N` to choose, `--hubs 0` for none): one for a builtin
 * or lib: target (a builtin one runs in lanes, threads of one process);
 * none by default for a python: target, whose cost is per case in Python:
 * measured, hubs did not make it faster (docs/TARGETS.md).
 * Each hub owns the target, and each job sends its cases to hub
 * (pid mod N) through $GMFUZZ_TARGET_HUB and $GMFUZZ_TARGET_HUBS. A hub
 * that dies is started again; its log is DIR/logs/hub-K.log. */
#ifndef CAMPAIGN_HUB_H
#define CAMPAIGN_HUB_H

#include <stdbool.h>

#include "campaign.h"
#include "campaign_argv.h"
#include "campaign_options.h"
#include "campaign_proc.h"
#include "campaign_setup.h"
#include "gm_error.h"

#define CAMPAIGN_HUB_RESTARTS_MAX 100
#define CAMPAIGN_HUB_START_S 120.0 /* a Python target imports torch and compiles first */

typedef struct {
    int n;
    char name[64]; /* the base name; hub k listens on @name.k */
    char target[HARNESS_TARGET_PATH_MAX + 200];
    campaign_proc procs[CAMPAIGN_HUBS_MAX];
    char gpus[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX]; /* hub k's device ("": any) */
    unsigned restarts; /* hubs started again after they died */
} campaign_hubs;

/* How many hubs the campaign runs (0: none): --hubs, else one per device
 * of --gpus, else as above. */
int campaign_hub_count(const campaign_options *o);


/* Starts the hubs, waits until each answers (or fails, with its log's last
 * line), and adds the jobs' environment to `env`. n == 0: nothing. */
bool campaign_hubs_start(campaign_hubs *h, const campaign_setup *s, campaign_argv *env,
                         gm_error *err);

/* Starts again the hubs that died (the jobs reconnect on their restart). */
void campaign_hubs_tick(campaign_hubs *h, const campaign_setup *s);

void campaign_hubs_stop(campaign_hubs *h);

#endif
