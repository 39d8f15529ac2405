/* gm_rundir: a campaign's output folder, read back for triage and reports.
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
 * against the one its recorded outputs give (gm_repro_check.h): a stale or
 * tampered one is new, in a bucket of its own, whatever the baseline lists.
 * Nothing here writes.
 */
#ifndef GM_RUNDIR_H
#define GM_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_baseline.h"
#include "gm_classify.h"
#include "gm_error.h"
#include "gm_oracle.h"

#define GM_RUNDIR_TIME_MAX 40   /* "2026-11-29T12:00:13Z", with room */

/* One line of stats.jsonl. */
typedef struct {
    double t;                   /* seconds since the campaign started */
    uint64_t execs, exec_per_sec, coverage, corpus;
    uint64_t signatures, failures;
} gm_rundir_sample;

/* One campaign folder of a merged one (`gmfuzz merge`): "sources" of its
 * campaign.json (gm_rundir_sources.h). */
typedef struct {
    char path[1024];            /* the folder as given to merge */
    char host[256];             /* "" when not recorded */
    char engine[16];
    char started_at[GM_RUNDIR_TIME_MAX];
    char ended_at[GM_RUNDIR_TIME_MAX];
    double elapsed_s;
    uint64_t execs, signatures, buckets, inputs;
    int exit_code;              /* -1: not ended */
} gm_rundir_source;

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
    char started_at[GM_RUNDIR_TIME_MAX];
    char ended_at[GM_RUNDIR_TIME_MAX];   /* "" while running or after a crash */
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
    gm_rundir_source *sources;  /* a merged folder's campaigns, in merge order */
    size_t n_sources;           /* 0: not a merged folder */
    char corpus_merge[16];      /* a merge's corpus: "libfuzzer", "union"; "" for none */
    char corpus_merge_note[1024]; /* why a union, when it is one */
} gm_rundir_campaign;

/* Every failing input with one signature. */
typedef struct {
    gm_finding finding;         /* parsed back from the signature string */
    size_t count;               /* failing inputs with this signature */
    char first_seen[GM_RUNDIR_TIME_MAX];  /* earliest found.at, ISO-8601 */
    char last_seen[GM_RUNDIR_TIME_MAX];   /* latest found.at */
    uint64_t first_execs;       /* found.execs of the earliest */
    char *repro;                /* the minimized reproducer (repros/), or NULL */
    char *smallest;             /* the smallest file: `repro` when there is one */
    long long smallest_bytes;
    int64_t smallest_bs;        /* bs of that file's case */
    gm_difference first_difference;   /* recorded in `smallest` */
    gm_baseline_entry baseline; /* what the baseline says (known, decision, why) */
    size_t bucket;              /* index into gm_rundir.buckets */
    char *stale;                /* NULL, or why `smallest` records a signature its outputs
                                 * do not give (gm_repro_check.h): then it is new, in the
                                 * bucket GM_REPRO_CHECK_STALE_BUCKET */
} gm_rundir_signature;

/* The signatures of one root cause (gm_bucket.h). A signature's bucket is
 * that of its representative file (`smallest`), classified from the
 * outputs it recorded: reproducers written before buckets existed have one
 * too. */
typedef struct {
    char key[GM_BUCKET_MAX];
    size_t *sigs;               /* indices into gm_rundir.sigs, in their order */
    size_t n_sigs;
    size_t inputs;              /* failing inputs over its signatures */
    bool fresh;                 /* one of its signatures is new to the baseline */
    size_t smallest;            /* the signature whose file has the fewest rows */
    gm_baseline_entry baseline; /* a "buckets" entry of the baseline, when it lists one */
} gm_rundir_bucket;

typedef struct {
    char *path;
    bool is_campaign;           /* a run folder, not a plain folder */
    gm_rundir_campaign campaign;
    gm_rundir_sample *samples;
    size_t n_samples;
    gm_rundir_signature *sigs;  /* by first seen, then by signature */
    size_t n_sigs;
    gm_rundir_bucket *buckets;  /* new ones first, then by their first signature */
    size_t n_buckets;
    size_t inputs;              /* failing inputs read */
    size_t class_inputs[GM_CLASS_COUNT];  /* failing inputs naming each class */
    size_t unreadable;          /* files that are not reproducers */
    char last_problem[GM_ERROR_MSG_MAX];  /* why the last of them was not */
} gm_rundir;

/* Reads folder `dir`; `baseline` decides known or new (NULL: nothing is
 * known). A file that is not a reproducer is counted in `unreadable`, not
 * an error; a folder that cannot be read, or a malformed campaign.json or
 * stats.jsonl, is (the message names the file and line). */
bool gm_rundir_load(const char *dir, const gm_baseline *baseline, gm_rundir *out,
                    gm_error *err);

/* Signatures the baseline does not know. */
size_t gm_rundir_new(const gm_rundir *r);

/* Signatures whose representative file is stale (gm_rundir_signature.stale). */
size_t gm_rundir_stale(const gm_rundir *r);

/* Buckets with a signature the baseline does not know. */
size_t gm_rundir_new_buckets(const gm_rundir *r);

void gm_rundir_free(gm_rundir *r);

#endif
