/* repro: the repro room's contract, all that other rooms may call:
 * reproducer files (gmfuzz-repro-v1) written from a classified run, their
 * recorded signature checked against their recorded outputs, the few
 * fields triage reads from them without a full parse, their byte-exact
 * rewrite (`gmfuzz replay --exact`), and run folders (what `gmfuzz fuzz`
 * writes: campaign.json, stats.jsonl, failures/, repros/) read back for
 * triage and reports. How a run folder's signatures are grouped into
 * buckets (repro_rundir_bucket.h) and how a merged campaign.json's
 * "sources" are read (repro_rundir_sources.h) are private to the room.
 */
#ifndef REPRO_H
#define REPRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "harness.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_oracle.h"
#include "triage.h"

/* ---- reproducer files (repro.c) ---- */

typedef struct {
    const char *found_by;   /* "libfuzzer", "afl++", "replay", "minimize" */
    uint64_t execs;         /* executions when found */
    bool minimized;
    const char *found_at;   /* ISO-8601 time when found; NULL: now (UTC) */
    const gm_target_record *target; /* an external target (harness_backend_identity); NULL: builtin */
} repro_origin;

/* Writes the reproducer of run `r` of case `c` (classified as `f`) to
 * `path`, atomically (gm_json_write_file). */
bool repro_write(const char *path, const gm_case *c, const harness_run_result *r,
                 const triage_finding *f, harness_backend_kind backend, const repro_origin *origin,
                 gm_error *err);

/* The finding that a reproducer's recorded outputs show, classified now:
 * the same buffers judged at the recorded level (the recorded status where
 * the buffers were not compared). It gives the bucket of a file written
 * before buckets existed (docs/FORMATS.md), without running anything. */
void repro_recorded_finding(const gm_doc *doc, triage_finding *out);

/* ---- the recorded signature checked (repro_check.c) ---- */

/* Whether a reproducer's recorded signature and classes are
 * what the classifier (triage.h) computes from its recorded outputs
 * (issue 11, item 5).
 *
 * A stale or tampered "signature" field would hide a finding as known.
 * replay, show and export check each document here (after replaying it, so
 * that the recorded outputs are those of a new run); triage and report
 * (repro_rundir) check every file (one past 256 KiB whose name's key,
 * repro_failure_name_key, matches a file read takes that file's bucket) and give a stale one its own bucket
 * (REPRO_CHECK_STALE_BUCKET) that no baseline accepts. The finding is classified from the recorded outputs and
 * verdict, as the campaign classified the run it saved.
 */

/* The bucket of a reproducer whose recorded signature is not what its
 * outputs give: never known, whatever the baseline lists. */
#define REPRO_CHECK_STALE_BUCKET "stale_signature|recorded|recomputed"

/* True when `doc` (a reproducer) records the signature and the set of
 * classes the classifier gives its recorded outputs; else false with `why`
 * naming both: "signature: recorded A, recomputed B (classes: recorded
 * [a], recomputed [b])". `now` (may be NULL) receives the recomputed
 * finding. A document that is not a reproducer passes. */
bool repro_check(const gm_doc *doc, triage_finding *now, char *why, size_t size);

/* ---- failure file names (repro_failure_name.c) ---- */

/* The key of a failure file's name, "failure-<key>-<pid>-<execs>.json"
 * (16 hex digits): FNV-1a of "<signature>||<bucket>", as the job that wrote
 * it classified the run. A reader that will not read a large file whole
 * takes the bucket of a file it did read whose signature and bucket give
 * the same key; files named before the key held the bucket match none. */
uint64_t repro_failure_name_key(const char *signature, const char *bucket);

/* The key of the file `path` names (its last component); false when the
 * name is not "failure-<16 hex digits>-...". */
bool repro_failure_name_parse(const char *path, uint64_t *key);

/* ---- run folders (repro_rundir.c) ---- */

/* A campaign's output folder, read back for triage and reports.
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
 * against the one its recorded outputs give (repro.h): a stale or
 * tampered one is new, in a bucket of its own, whatever the baseline lists.
 * Nothing here writes.
 */

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
    uint64_t target_unreliable_crashed, target_unreliable_hung; /* not again on a fresh worker */
    uint64_t target_compiles, target_loads, target_jit_ms;     /* the target's JIT */
    uint64_t target_classes, target_held;                      /* by specialization class */
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

/* Every failing input with one signature, in one bucket. */
typedef struct {
    triage_finding finding;     /* parsed back from the signature string */
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
    char bucket_key[TRIAGE_BUCKET_MAX]; /* that bucket's key: a signature is kept per bucket */
    char *stale;                /* NULL, or why `smallest` records a signature its outputs
                                 * do not give (repro.h): then it is new, in the
                                 * bucket REPRO_CHECK_STALE_BUCKET */
} repro_rundir_signature;

/* The signatures of one root cause (triage_bucket.h). Every file's bucket
 * is classified from the outputs it recorded (reproducers written before
 * buckets existed have one too; a file past 256 KiB takes the bucket of
 * a file read whose signature and bucket give its name's key), and a signature is kept per bucket: one
 * whose files fall in two buckets (reads through a dropped guard that see
 * other garbage each time) is listed in both, as the campaign's summary
 * lists it. */
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

/* ---- campaign.json (repro_rundir_campaign.c) ---- */

/* Reads a run folder's campaign.json
 * (gmfuzz-campaign-v1, repro.h and docs/FORMATS.md) into a
 * repro_rundir_campaign.
 *
 * The document is written at a campaign's start and again at its end, so
 * a key may be absent (an older or unfinished writer): it keeps its
 * default ("", NULL, 0; exit_code -1). A key that is present must have its
 * type; null is allowed for every string and for exit_code. */

#define REPRO_RUNDIR_CAMPAIGN_FORMAT "gmfuzz-campaign-v1"

/* Fills `out` (present = true); the error names the file and the key. */
bool repro_rundir_campaign_read(const char *path, repro_rundir_campaign *out, gm_error *err);

/* Frees the strings `c` owns and resets it to "absent". */
void repro_rundir_campaign_free(repro_rundir_campaign *c);

/* ---- stats.jsonl (repro_rundir_stats.c) ---- */

/* Reads a run folder's stats.jsonl, one repro_rundir_sample
 * per line ({"t", "execs", "exec_per_sec", "coverage", "corpus",
 * "signatures", "failures"}, every key required, other keys ignored).
 *
 * Blank lines are skipped. A last line with no newline that does not
 * parse is a sample cut off by a crash or read while being written: it is
 * left out, not an error. Any other bad line is, naming the file, the line
 * and the key. */

/* *out (the caller frees it) holds *n samples, in file order. */
bool repro_rundir_stats_read(const char *path, repro_rundir_sample **out, size_t *n, gm_error *err);

/* ---- the triage document (repro_rundir_json.c) ---- */

/* A loaded run folder as a gmfuzz-triage-v1 document, what
 * `gmfuzz triage --json` prints (docs/FORMATS.md, "Triage"). */

#define REPRO_RUNDIR_JSON_FORMAT "gmfuzz-triage-v1"

/* The document for `r`, judged against the baseline at `baseline_path`
 * (NULL: nothing was known, as with --strict-baseline). NULL when memory
 * runs out. */
cJSON *repro_rundir_json(const repro_rundir *r, const char *baseline_path);

/* ---- the fields triage reads (repro_fields.c) ---- */

/* The few fields of a reproducer (gmfuzz-repro-v1) that
 * triage needs, read without building its case and buffers.
 *
 * A run folder holds thousands of reproducers, an unminimized one up to
 * megabytes (out/fuzz-20261129T120013Z: 2,283 failures, 940 MB); reading
 * each whole with gm_json_read_file takes ~50 times longer than this. The
 * whole file's JSON syntax is checked (gm_jsonscan), and the fields read
 * here are checked as strictly as gm_json checks them; the rest of the
 * document is not (`gmfuzz replay` does that).
 */

typedef struct {
    triage_finding finding;         /* parsed back from "signature" */
    bool has_found;                 /* "found" given (not null) */
    char found_at[REPRO_RUNDIR_TIME_MAX];
    uint64_t found_execs;
    int64_t bs;                     /* entries of case.req_pool_indices */
    gm_difference first_difference; /* present == false: none recorded */
    long long bytes;                /* the file's size */
} repro_fields;

/* Reads `path`; false (err naming the file and the field) when it is not
 * a reproducer. */
bool repro_fields_read(const char *path, repro_fields *out, gm_error *err);

/* ---- the byte-exact rewrite (repro_rewrite.c) ---- */

/* A reproducer run again and written again, byte for byte.
 *
 * A reproducer records what one build computed, and the regression corpus
 * (corpus/regress/) relies on that record being stable: the same build
 * must write the very same bytes for it. repro_rewrite_render re-runs the case
 * at the level the reproducer records, classifies the run, and builds the
 * document repro_write would write for it, keeping as recorded the
 * fields that say where the reproducer came from (backend, found,
 * minimized, tool_version); the outputs, the verdict, the classes and the
 * signature come from the new run. One exception: after the same
 * out-of-bounds access on a backend other than the recorded one, the fused
 * outputs stay as recorded (what the buffers hold after an overrun depends
 * on the backend's threads). repro_rewrite_check compares that text
 * with the file's bytes and names the first difference: its byte offset
 * and the JSON field that holds it.
 */

typedef struct {
    bool same;          /* the rewrite is the file, byte for byte */
    char message[768];  /* where they first differ; empty when same */
} repro_rewrite_outcome;

/* The bytes a rewrite of reproducer `doc` (run on `b`) gives: the document
 * as gm_json_write_file lays it out (unformatted, one trailing newline).
 * *text is malloc'd, NUL-terminated, *len bytes. */
bool repro_rewrite_render(harness_backend *b, const gm_doc *doc, char **text, size_t *len,
                          gm_error *err);

/* Compares the file at `path` (already read into `doc`, a reproducer) with
 * its rewrite. False only when the file or a run failed (err set); a
 * rewrite that differs is a success with out->same == false. */
bool repro_rewrite_check(harness_backend *b, const char *path, const gm_doc *doc, const gm_limits *lim,
                         repro_rewrite_outcome *out, gm_error *err);

#endif
