/* campaign: the campaign room's contract, what the other rooms (the
 * command line) may call. The room runs coverage-guided and sweep campaigns
 * (`gmfuzz fuzz`, `gmfuzz sweep`: engines, jobs, hubs, stats, records,
 * reproducers, reports at the end) and merges campaign folders (`gmfuzz
 * merge`). Its other headers (campaign_*.h) are its own; tests reach them.
 *
 * A campaign, in the order it runs (campaign_fuzz):
 *   prepare   the output folder, target, seeds, dictionary, baseline
 *             (campaign_setup.h)
 *   run       the engine processes until time is up or Ctrl-C
 *             (campaign_run.h, campaign_engine.h)
 *   minimize  one representative per signature into DIR/repros/
 *             (campaign_minimizer.h, campaign_repro.h)
 *   report    the summary on stdout and in DIR/summary.txt
 *             (campaign_summary.h); how it ended in DIR/campaign.json
 *             (campaign_record.h); report.md, summary.json, junit.xml and
 *             report.html (campaign_report.h)
 */
#ifndef CAMPAIGN_H
#define CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gm_error.h"
#include "gm_oracle.h"
#include "harness.h"

/* ---- a campaign's options (campaign_options.c) ---------------------------
 *
 * With no flags a campaign does something useful: libFuzzer on the CPU
 * backend, one job per core, 60 seconds, live comparison against the
 * shipped baseline, output in a new folder out/fuzz-<UTC time>/. */

/* SWEEP: structured random cases (harness/harness_gen.c), no coverage, sent to
 * the target in batches (`gmfuzz sweep`): its jobs are `gmfuzz sweep-job`
 * processes that speak libFuzzer's status lines. */
typedef enum {
    CAMPAIGN_LIBFUZZER,
    CAMPAIGN_AFL,
    CAMPAIGN_SWEEP,
    CAMPAIGN_ENGINE_COUNT /* the rows of the engine table (campaign_engine.c) */
} campaign_engine;

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
    double target_compile_timeout_s; /* --target-compile-timeout; 0: the default */
    double target_start_timeout_s; /* --target-start-timeout: a python: worker's start-up
                                    * (import, HELLO); 0: the default (180 s) */
    const char *target_cache; /* --target-cache DIR: the target's JIT cache
                               * (TRITON_CACHE_DIR for every process); NULL: as set */
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
    uint64_t shape_run;       /* sweep: cases drawn per shape (default 1) */
    const char *schedule;     /* --schedule auto|classes|naive (fuzz/fuzz_sched.h); NULL: auto */
    uint64_t class_run;       /* --class-run: cases a run of one class; 0: the default */
    uint64_t class_budget;    /* --class-budget: percent of the time new classes may
                               * cost; 0: the default */
    uint64_t class_warm;      /* --class-warm: new classes met at once; 0: the default */
    int hubs;                 /* --hubs: target hubs (campaign/campaign_hub.h); -1: auto */
    int hub_lanes;            /* --hub-lanes: threads per hub of a builtin target */
    const char *gpus;         /* --gpus all|LIST: one hub per device listed; NULL: none */
    double stall_s;           /* --stall-timeout: a job idle (or with no new
                               * executions) this long is restarted */
} campaign_options;

void campaign_options_default(campaign_options *o);

/* Sets option `flag` ("--time", "--no-seeds", ...: the spelling of `gmfuzz
 * fuzz --help`) from `value` (NULL for a switch). False when the flag is
 * not one, a switch is given a value, a valued flag none, or the value is
 * out of its range. */
bool campaign_options_set(campaign_options *o, const char *flag, const char *value);

/* Whether `flag` takes a value. */
bool campaign_options_takes_value(const char *flag);

/* The flags, one table (campaign_options.c): flag i's name (without
 * "--"), and whether it takes a value; NULL past the last. */
size_t campaign_options_count(void);
const char *campaign_options_name(size_t i, bool *takes_value);

/* Whose --help: `gmfuzz fuzz` lists every flag, `gmfuzz sweep` its own. */
typedef enum { CAMPAIGN_HELP_FUZZ, CAMPAIGN_HELP_SWEEP } campaign_help;

/* The flags' lines of that help ("  --NAME ARG  text", the text at column 28). */
void campaign_options_usage(FILE *to, campaign_help which);

/* What the options say together; false (why in `msg`) when they do not fit
 * (--runs with AFL++). */
bool campaign_options_check(const campaign_options *o, char *msg, size_t msg_size);

/* The engine's name (campaign_engine.c's table). */
const char *campaign_engine_name(campaign_engine e);

/* gmfuzz fuzz's exit codes (docs/FUZZING.md). */
enum {
    CAMPAIGN_EXIT_OK = 0,       /* nothing new found */
    CAMPAIGN_EXIT_FINDING = 1,  /* a new signature found (and saved) */
    CAMPAIGN_EXIT_USAGE = 2,
    CAMPAIGN_EXIT_INFRA = 4,    /* no target, engines that would not run, backend failed */
    CAMPAIGN_EXIT_LOCKED = 5,   /* --out is in use by another campaign */
    CAMPAIGN_EXIT_UNSAVED = 6,  /* a finding could not be saved (disk full, I/O error) */
};

/* Runs a campaign to its end: prepares it, runs its jobs, minimizes what
 * they found, writes its record, summary and reports. Messages name the
 * command `name` ("fuzz", "sweep"). Returns the exit code above. */
int campaign_fuzz(const campaign_options *o, const char *name);

/* ---- warming a target's JIT cache (campaign_warm.c) --------------------- */

/* `gmfuzz warm`: the classes a campaign's jobs meet first, compiled ahead,
 * in parallel over `jobs` workers of the target (each its own process):
 * job k's first `classes` new classes of a sweep seeded like the campaign
 * (fuzz/fuzz_sched.h) and every jobs-th input of the seed corpus (what a
 * libFuzzer job meets first). The target's compiles land in its on-disk
 * cache (TRITON_CACHE_DIR: --target-cache), which the campaign's workers
 * then load from. Prints one line; exit 0, or 4 when a worker could not
 * open the target or nothing ran. */
typedef struct {
    harness_target_spec target;
    int jobs;
    unsigned classes;  /* per job */
    uint64_t seed;     /* the campaign's --seed; 0: its default */
    const char *seeds; /* a seed corpus folder; NULL: none */
} campaign_warm_options;

int campaign_warm(const campaign_warm_options *o);

/* ---- hubs (campaign_hub.c) ---------------------------------------------- */

#define CAMPAIGN_HUBS_MAX 64
#define CAMPAIGN_GPU_NAME_MAX 16

/* --gpus all|LIST: the devices, in order ("all": $CUDA_VISIBLE_DEVICES,
 * else every GPU of the driver); -1 (err set) on a bad list. Hub k runs on
 * device k mod n (CUDA_VISIBLE_DEVICES of its process); a list may repeat a
 * device. */
int campaign_hub_gpus(const char *spec, char list[][CAMPAIGN_GPU_NAME_MAX], gm_error *err);

/* ---- run folders (campaign_record.c, campaign_repro.c) ------------------- */

/* The baseline a run folder is judged against by default: its known.json
 * when it has one (a campaign recorded it), else the source tree's
 * corpus/known.json when that exists; false (out = "") when neither. */
bool campaign_record_baseline_for(const char *dir, char *out, size_t size);

/* "decode|unclassified|cu_seqlens_k+page_table" ->
 * "decode.unclassified.cu_seqlens_k-page_table" (names are [a-z0-9_], and the
 * exception types of target buckets [A-Za-z0-9_]; anything else becomes "_");
 * past CAMPAIGN_REPRO_SLUG_MAX characters the tail becomes "~<hash>", so
 * that "<slug>.json" fits in a file name. */
#define CAMPAIGN_REPRO_SLUG_MAX 200
void campaign_repro_slug(const char *signature, char *out, size_t size);

/* ---- merging campaign folders (campaign_merge.c) -------------------------- */

/* gmfuzz merge's exit codes, in line with fuzz's and report's. */
enum {
    CAMPAIGN_MERGE_EXIT_OK = 0,      /* merged; nothing new to the baseline */
    CAMPAIGN_MERGE_EXIT_NEW = 1,     /* merged; a signature is new */
    CAMPAIGN_MERGE_EXIT_USAGE = 2,   /* bad arguments, OUT is a source or not empty */
    CAMPAIGN_MERGE_EXIT_SOURCE = 3,  /* a source is not a campaign folder, or unreadable */
    CAMPAIGN_MERGE_EXIT_INFRA = 4,   /* the corpus merge or a write failed */
    CAMPAIGN_MERGE_EXIT_LOCKED = 5,  /* OUT is in use by another campaign or merge */
};

typedef struct {
    const char *out;
    char *const *sources;
    size_t n_sources;
    const char *engine_binary; /* the libFuzzer target; NULL: searched as fuzz does */
    bool union_only;           /* --union: no libFuzzer merge, even where one exists */
} campaign_merge_options;

/* Runs the merge, says what it does on `say`; the exit code. Errors go to
 * stderr, naming the folder and file. */
int campaign_merge_run(const campaign_merge_options *o, FILE *say);

#endif
