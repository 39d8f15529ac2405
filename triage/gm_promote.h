/* gm_promote: adds a reproducer to the regression corpus (corpus/regress/),
 * the folder that every CI run replays.
 *
 * Two steps, so that the caller names the file in between:
 *
 *   prepare  reads the reproducer, replays it, and refuses it (a value, not
 *            an error) unless the replay gives the recorded verdict, outputs
 *            and signature; a reproducer that is not minimized is refused
 *            too, unless the options ask to minimize it (keeping the
 *            signature, triage/gm_minimize.h);
 *   commit   writes it into the corpus (a complete gmfuzz-repro-v1 as
 *            gm_repro_write writes it, atomically), deduplicated by
 *            signature: when a corpus file already holds the signature, the
 *            smaller of the two files stays (the existing one on a tie).
 */
#ifndef GM_PROMOTE_H
#define GM_PROMOTE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "gm_classify.h"
#include "gm_error.h"
#include "gm_json.h"

typedef struct {
    bool minimize;      /* minimize a reproducer that records minimized: false */
    size_t max_runs;    /* the minimizer's budget; 0: no limit */
    gm_limits limits;   /* reader limits, for the reproducer and the corpus */
} gm_promote_options;

/* A reproducer on its way into the corpus. */
typedef struct {
    gm_doc doc;             /* as read; doc.c is minimized in place when asked */
    harness_run_result run;      /* the last run of doc.c */
    gm_finding finding;     /* its classification */
    bool minimized_now;     /* prepare minimized it */
    size_t minimize_runs;
    bool refused;
    char why[896];          /* why it was refused */
} gm_promote_candidate;

void gm_promote_candidate_init(gm_promote_candidate *cand);
void gm_promote_candidate_free(gm_promote_candidate *cand);

/* Fills `cand` from the reproducer at `path`. False only when the file
 * cannot be read or a run failed (err set); a refusal is a success with
 * cand->refused set. */
bool gm_promote_prepare(harness_backend *b, const char *path, const gm_promote_options *o,
                        gm_promote_candidate *cand, gm_error *err);

typedef enum {
    GM_PROMOTE_ADDED,      /* no corpus file held the signature */
    GM_PROMOTE_REPLACED,   /* the new file is smaller than the one that held it */
    GM_PROMOTE_KEPT,       /* a corpus file holds it and is no larger: unchanged */
} gm_promote_action;

typedef struct {
    gm_promote_action action;
    char path[PATH_MAX];       /* the corpus file that holds the signature now */
    long bytes;                /* its size */
    char other[PATH_MAX];      /* replaced: the file removed; kept: "" */
    long other_bytes;          /* replaced: its size; kept: the rejected rewrite's size */
} gm_promote_result;

/* Writes `cand` into `corpus_dir` as `file_name` unless the corpus already
 * holds its signature in a file no larger. `backend` is what ran it. */
bool gm_promote_commit(const gm_promote_candidate *cand, harness_backend_kind backend,
                       const char *corpus_dir, const char *file_name, const gm_limits *lim,
                       gm_promote_result *res, gm_error *err);

/* The default corpus: the source tree's corpus/regress (fixed at build
 * time, as the default baseline corpus/known.json is). */
const char *gm_promote_default_corpus(void);

const char *gm_promote_action_name(gm_promote_action a);

#endif
