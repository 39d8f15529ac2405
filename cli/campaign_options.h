/* campaign_options: the flags of `gmfuzz fuzz` and their defaults.
 *
 * With no flags a campaign does something useful: libFuzzer on the CPU
 * backend, one job per core, 60 seconds, live comparison against the
 * shipped baseline, output in a new folder out/fuzz-<UTC time>/.
 */
#ifndef CAMPAIGN_OPTIONS_H
#define CAMPAIGN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_error.h"
#include "gm_oracle.h"
#include "harness.h"

/* SWEEP: structured random cases (harness/harness_gen.c), no coverage, sent to
 * the target in batches (`gmfuzz sweep`): its jobs are `gmfuzz sweep-job`
 * processes that speak libFuzzer's status lines. */
typedef enum { CAMPAIGN_LIBFUZZER, CAMPAIGN_AFL, CAMPAIGN_SWEEP } campaign_engine;

#define CAMPAIGN_DEFAULT_TIME_S 60.0
/* A job with no output and no CPU time for this long is restarted. */
#define CAMPAIGN_DEFAULT_STALL_S 60.0

typedef struct {
    campaign_engine engine;
    const char *backend;      /* "cpu" or "cuda": which target binary */
    double time_s;            /* wall-clock budget */
    int jobs;                 /* engine processes; default: online cores */
    const char *out_dir;      /* NULL: out/fuzz-<UTC time> */
    gm_compare compare;
    bool strict_baseline;     /* every non-match is a failure */
    const char *baseline;     /* NULL: the source tree's corpus/known.json */
    const char *target;       /* the engine's binary (--engine-binary); NULL: searched */
    const char *fused;        /* --target SPEC (docs/TARGETS.md); NULL: builtin:<backend> */
    const char *target_device; /* --target-device cuda|cpu; NULL: cuda */
    double target_timeout_s;  /* --target-timeout; 0: the default */
    const char *reference;    /* --reference python:...: three-way; NULL: none */
    const char *seeds;        /* NULL: corpus/seed; "" (--no-seeds): a cold start */
    const char *dict;         /* NULL: fuzz/gmfuzz.dict; "" (--no-dict): none */
    uint64_t runs;            /* per-job executions; 0: no limit */
    uint64_t seed;            /* engine RNG seed of job 0; 0: random */
    bool stop_on_new;         /* end at the first new signature */
    bool abort_on_failure;    /* targets abort at each failure and are restarted,
                                 instead of going on (GMFUZZ_KEEP_GOING) */
    bool minimize;            /* minimize representatives at the end */
    double minimize_time_s;   /* --minimize-time: that phase's budget; 0: the default
                               * (campaign_options_minimize_time) */
    uint64_t batch;           /* sweep: cases per round trip (default 64) */
    int hubs;                 /* --hubs: target hubs (cli/campaign_hub.h); -1: auto */
    int hub_lanes;            /* --hub-lanes: threads per hub of a builtin target */
    const char *gpus;         /* --gpus all|LIST: one hub per device listed; NULL: none */
    double stall_s;           /* --stall-timeout: a job idle (or with no new
                               * executions) this long is restarted */
    bool help;
} campaign_options;

void campaign_options_default(campaign_options *o);

/* Parses argv[1..argc) (argv[0] is "fuzz"). False on a usage error, with
 * the message in `msg`. */
bool campaign_options_parse(int argc, char **argv, campaign_options *o, char *msg,
                            size_t msg_size);

const char *campaign_engine_name(campaign_engine e);

/* The fused target the campaign's jobs run (--target, --backend, device,
 * timeout), for the driver's own runs (minimization). */
/* The minimization's budget: --minimize-time, else max(10 s, 25% of
 * --time). What it does not reach is saved unminimized. */
#define CAMPAIGN_MINIMIZE_MIN_S 10.0
#define CAMPAIGN_MINIMIZE_SHARE 0.25
double campaign_options_minimize_time(const campaign_options *o);

bool campaign_options_target(const campaign_options *o, harness_target_spec *out, gm_error *err);

extern const char campaign_options_usage[];

#endif
