/* history: the history room's contract, all that other rooms may call: a
 * finding over the target's history. Whether a reproducer still fails on a
 * target (history_verdict.c), every reproducer of a campaign folder or a
 * corpus retested (`gmfuzz retest`: history_retest.c), and the commit of a
 * git repository that introduced or fixed a finding (`gmfuzz bisect`:
 * history_bisect.c over history_git.c and history_checkout.c; its record,
 * history_record.c).
 *
 * "Same finding" means the same bucket (triage.h): the root cause, not the
 * exact signature, which shifts with what co-occurs in the case. The bucket
 * a reproducer records is the one its recorded outputs give
 * (repro_recorded_finding), the one triage and the reports show.
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "gm_error.h"
#include "gm_json.h"
#include "harness.h"
#include "triage.h"

/* ---- one reproducer on one target (history_verdict.c) ---- */

typedef enum {
    HISTORY_STILL,   /* the run gives the recorded bucket: still failing */
    HISTORY_FIXED,   /* the two sides match now */
    HISTORY_CHANGED, /* it fails in another bucket */
} history_state;

/* "still_failing", "fixed", "changed". */
const char *history_state_name(history_state s);

typedef struct {
    history_state state;
    char recorded[TRIAGE_BUCKET_MAX]; /* the bucket the reproducer records */
    char now[TRIAGE_BUCKET_MAX];      /* the bucket of this run; "" when it matches */
    char signature[TRIAGE_SIGNATURE_MAX]; /* this run's signature; "" when it matches */
} history_verdict;

/* Runs reproducer `doc`'s case on `b` at the level it records and compares
 * the run's bucket with the recorded one. False when `doc` is not a
 * reproducer of a finding, or the run itself failed (err set). */
bool history_verdict_run(harness_backend *b, const gm_doc *doc, history_verdict *out,
                         gm_error *err);

/* ---- retest (history_retest.c) ---- */

/* The reproducers to retest under each PATH: a campaign folder (what
 * `gmfuzz fuzz` writes) gives one per signature, its minimized reproducer
 * (else its smallest failing input); any other folder, every *.json below
 * it; a file, itself. */
bool history_retest_paths(const char *const *paths, size_t n, harness_paths *out, gm_error *err);

typedef struct {
    char *path;
    char target[HARNESS_TARGET_PATH_MAX + 200]; /* what it ran on */
    bool ran;                 /* false: the file could not be read or run (`problem`) */
    history_verdict verdict;
    char problem[GM_ERROR_MSG_MAX];
} history_retest_item;

typedef struct {
    history_retest_item *items;
    size_t n, cap;
    size_t count[3];          /* by history_state */
    size_t problems;          /* files not read or not run */
} history_retest;

void history_retest_init(history_retest *r);
void history_retest_free(history_retest *r);

/* Adds one file's outcome on `target` (`v` NULL: `problem` says why it has
 * none). */
bool history_retest_add(history_retest *r, const char *path, const char *target,
                        const history_verdict *v, const char *problem, gm_error *err);

/* The table: one line per reproducer, then "N reproducers: N fixed, N
 * still failing, N changed[, N not run]". */
void history_retest_print(const history_retest *r, FILE *to);

/* The record (gmfuzz-retest-v1, docs/FORMATS.md); NULL when memory runs out. */
cJSON *history_retest_json(const history_retest *r);

/* ---- bisect (history_bisect.c) ---- */

typedef enum {
    HISTORY_BISECT_INTRODUCED, /* the first commit where the bucket appears */
    HISTORY_BISECT_FIXED,      /* the first commit where it is gone (--fixed) */
} history_bisect_kind;

/* What one tested revision gave. */
typedef enum {
    HISTORY_REV_REPRODUCES, /* the recorded bucket */
    HISTORY_REV_GONE,       /* a match, or another bucket */
    HISTORY_REV_SKIPPED,    /* the build, the checkout or the import failed */
} history_rev_result;

const char *history_rev_result_name(history_rev_result r);

#define HISTORY_HASH_MAX 72
#define HISTORY_SUBJECT_MAX 256
#define HISTORY_DATE_MAX 40

typedef struct {
    char hash[HISTORY_HASH_MAX];
    char subject[HISTORY_SUBJECT_MAX];
    char date[HISTORY_DATE_MAX];        /* author date, ISO-8601 */
} history_commit;

typedef struct {
    history_commit commit;
    history_rev_result result;
    char bucket[TRIAGE_BUCKET_MAX];     /* the run's bucket ("" for a match or a skip) */
    char why[GM_ERROR_MSG_MAX];         /* a skip's reason */
} history_bisect_step;

typedef struct {
    const char *repo;          /* the repository (any folder in its work tree) */
    const char *good, *bad;    /* --good: the finding does not reproduce; --bad: it does */
    history_bisect_kind kind;
    harness_target_spec target; /* its path relative to the repository's top */
    const char *build;         /* a shell command run in each checkout first, or NULL */
    const char *scratch;       /* where the checkouts go (NULL: $TMPDIR or /tmp) */
    FILE *progress;            /* one line per tested revision, or NULL */
} history_bisect_options;

typedef struct {
    history_bisect_kind kind;
    char recorded[TRIAGE_BUCKET_MAX];
    history_commit good, bad;   /* the ends, resolved */
    bool found;                 /* `first` is the answer */
    history_commit first;       /* found: the first commit in the new state */
    history_commit *suspects;   /* !found: it is one of these (skipped ones, then `bad` end) */
    size_t n_suspects;
    history_bisect_step *steps; /* in the order tested */
    size_t n_steps;
    size_t tested, skipped;     /* tested counts the skipped ones too */
} history_bisect_result;

/* Searches the commits between the ends (docs/BISECT.md). False when
 * something other than a revision failed: git, the reproducer, a backend
 * that failed in the middle of a run (err set). */
bool history_bisect_run(const history_bisect_options *o, const gm_doc *doc,
                        history_bisect_result *out, gm_error *err);

void history_bisect_result_free(history_bisect_result *r);

/* ---- the bisect record (history_record.c) ---- */

/* The record of one search (gmfuzz-bisect-v1, docs/FORMATS.md); NULL when
 * memory runs out. */
cJSON *history_record_json(const history_bisect_result *r, const history_bisect_options *o,
                           const char *repro);

/* Appends `doc` as one line to `path` (JSON Lines: one search a line). */
bool history_record_append(const char *path, const cJSON *doc, gm_error *err);

/* Where the record of `repro` goes by default: REPRO.bisect.jsonl (not
 * *.json: a folder scan of reproducers must not read it). */
void history_record_path(const char *repro, char *out, size_t size);

#endif
