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

#include "gm_oracle.h"

typedef enum { CAMPAIGN_LIBFUZZER, CAMPAIGN_AFL } campaign_engine;

#define CAMPAIGN_DEFAULT_TIME_S 60.0

typedef struct {
    campaign_engine engine;
    const char *backend;      /* "cpu" or "cuda": which target binary */
    double time_s;            /* wall-clock budget */
    int jobs;                 /* engine processes; default: online cores */
    const char *out_dir;      /* NULL: out/fuzz-<UTC time> */
    gm_compare compare;
    bool strict_baseline;     /* every non-match is a failure */
    const char *baseline;     /* NULL: the source tree's corpus/known.json */
    const char *target;       /* NULL: searched (campaign_setup.h) */
    const char *seeds;        /* NULL: corpus/seed; "" (--no-seeds): a cold start */
    const char *dict;         /* NULL: fuzz/gmfuzz.dict; "" (--no-dict): none */
    uint64_t runs;            /* per-job executions; 0: no limit */
    uint64_t seed;            /* engine RNG seed of job 0; 0: random */
    bool stop_on_new;         /* end at the first new signature */
    bool abort_on_failure;    /* targets abort at each failure and are restarted,
                                 instead of going on (GMFUZZ_KEEP_GOING) */
    bool minimize;            /* minimize representatives at the end */
    bool help;
} campaign_options;

void campaign_options_default(campaign_options *o);

/* Parses argv[1..argc) (argv[0] is "fuzz"). False on a usage error, with
 * the message in `msg`. */
bool campaign_options_parse(int argc, char **argv, campaign_options *o, char *msg,
                            size_t msg_size);

const char *campaign_engine_name(campaign_engine e);

extern const char campaign_options_usage[];

#endif
