/* repro_rundir: a campaign's output folder, read back for triage and reports.
 *
 * A run folder (what `gmfuzz fuzz` writes, docs/FORMATS.md):
 *   campaign.json   gmfuzz-campaign-v1: how the campaign was run and how it
 *                   ended (written at the start, rewritten at the end)
 *   stats.jsonl     one sample a second: {"t", "execs", "exec_per_sec",
 *                   "coverage", "corpus", "signatures", "failures"}
 *   failures/       every failing input, an unminimized gmfuzz-repro-v1
 *   repros/         one minimized reproducer per signature
 * Any other folder is read as a plain folder of reproducers (all *.json
 * below it, e.g. corpus/regress/): each file is one failing input.
 *
 * Loading groups the failing inputs by signature, the signatures by bucket
 * (their root cause), and asks the baseline about each. Each signature's
 * representative file is read whole and its recorded signature checked
 * against the one its recorded outputs give (repro_check.h): a stale or
 * tampered one is new, in a bucket of its own, whatever the baseline lists.
 * Nothing here writes.
 */
#ifndef REPRO_RUNDIR_H
#define REPRO_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "triage_baseline.h"
#include "triage_classify.h"
#include "gm_error.h"
#include "gm_oracle.h"

#define REPRO_RUNDIR_TIME_MAX 40   /* "2026-11-29T12:00:13Z", with room */

/* One line of stats.jsonl. */
typedef struct {
    double t;                   /* seconds since the campaign started */
    uint64_t execs, exec_per_sec, coverage, corpus;
    uint64_t signatures, failures;
} repro_rundir_sample;

/* One campaign folder of a merged one (`gmfuzz merge`): "sources" of its
 * campaign.json (repro_rundir_sources.h). */
typedef struct {
    char path[1024];            /* the folder as given to merge */
    char host[256];             /* "" when not recorded */
    char engine[16];
    char started_at[REPRO_RUNDIR_TIME_MAX];
    char ended_at[REPRO_RUNDIR_TIME_MAX];
    double elapsed_s;
    uint64_t execs, signatures, buckets, inputs;
    int exit_code;              /* -1: not ended */
} repro_rundir_source;

/* campaign.json: {"format": "gmfuzz-campaign-v1", then one key per field
 * below, same name and meaning; strings null when absent}. `present` is
 * false when the folder has none. */
typedef struct {
    bool present;
    char engine[16];            /* "libfuzzer", "afl++" */
    char backend[16];           /* "cpu", "cuda", ... */
    char compare[8];            /* "live", "strict" */
    bool strict_baseline;
    int jobs;
    double budget_s;
    char started_at[REPRO_RUNDIR_TIME_MAX];
    char ended_at[REPRO_RUNDIR_TIME_MAX];   /* "" while running or after a crash */
    double elapsed_s;
    uint64_t execs, coverage, corpus;
    unsigned restarts;
    uint64_t target_restarts_crashed, target_restarts_hung; /* external targets' workers */
    bool interrupted;
    char *problem;              /* infrastructure trouble, or NULL */
    int exit_code;              /* -1: not ended */
    char *baseline;             /* the baseline file the campaign used, or NULL */
    char *tool_version;
    char host[256];             /* the machine it ran on; "" when not recorded */
    repro_rundir_source *sources;  /* a merged folder's campaigns, in merge order */
    size_t n_sources;           /* 0: not a merged folder */
    char corpus_merge[16];      /* a merge's corpus: "libfuzzer", "union"; "" for none */
    char corpus_merge_note[1024]; /* why a union, when it is one */
} repro_rundir_campaign;

/* Every failing input with one signature. */
typedef struct {
    triage_finding finding;         /* parsed back from the signature string */
    size_t count;               /* failing inputs with this signature */
    char first_seen[REPRO_RUNDIR_TIME_MAX];  /* earliest found.at, ISO-8601 */
    char last_seen[REPRO_RUNDIR_TIME_MAX];   /* latest found.at */
    uint64_t first_execs;       /* found.execs of the earliest */
    char *repro;                /* the minimized reproducer (repros/), or NULL */
    char *smallest;             /* the smallest file: `repro` when there is one */
    long long smallest_bytes;
    int64_t smallest_bs;        /* bs of that file's case */
    gm_difference first_difference;   /* recorded in `smallest` */
    triage_baseline_entry baseline; /* what the baseline says (known, decision, why) */
    size_t bucket;              /* index into repro_rundir.buckets */
    char *stale;                /* NULL, or why `smallest` records a signature its outputs
                                 * do not give (repro_check.h): then it is new, in the
                                 * bucket REPRO_CHECK_STALE_BUCKET */
} repro_rundir_signature;

/* The signatures of one root cause (triage_bucket.h). A signature's bucket is
 * that of its representative file (`smallest`), classified from the
 * outputs it recorded: reproducers written before buckets existed have one
 * too. */
typedef struct {
    char key[TRIAGE_BUCKET_MAX];
    size_t *sigs;               /* indices into repro_rundir.sigs, in their order */
    size_t n_sigs;
    size_t inputs;              /* failing inputs over its signatures */
    bool fresh;                 /* one of its signatures is new to the baseline */
    size_t smallest;            /* the signature whose file has the fewest rows */
    triage_baseline_entry baseline; /* a "buckets" entry of the baseline, when it lists one */
} repro_rundir_bucket;

typedef struct {
    char *path;
    bool is_campaign;           /* a run folder, not a plain folder */
    repro_rundir_campaign campaign;
    repro_rundir_sample *samples;
    size_t n_samples;
    repro_rundir_signature *sigs;  /* by first seen, then by signature */
    size_t n_sigs;
    repro_rundir_bucket *buckets;  /* new ones first, then by their first signature */
    size_t n_buckets;
    size_t inputs;              /* failing inputs read */
    size_t class_inputs[TRIAGE_CLASS_COUNT];  /* failing inputs naming each class */
    size_t unreadable;          /* files that are not reproducers */
    char last_problem[GM_ERROR_MSG_MAX];  /* why the last of them was not */
} repro_rundir;

/* Reads folder `dir`; `baseline` decides known or new (NULL: nothing is
 * known). A file that is not a reproducer is counted in `unreadable`, not
 * an error; a folder that cannot be read, or a malformed campaign.json or
 * stats.jsonl, is (the message names the file and line). */
bool repro_rundir_load(const char *dir, const triage_baseline *baseline, repro_rundir *out,
                       gm_error *err);

/* Signatures the baseline does not know. */
size_t repro_rundir_new(const repro_rundir *r);

/* Signatures whose representative file is stale (repro_rundir_signature.stale). */
size_t repro_rundir_stale(const repro_rundir *r);

/* Buckets with a signature the baseline does not know. */
size_t repro_rundir_new_buckets(const repro_rundir *r);

void repro_rundir_free(repro_rundir *r);

#endif
