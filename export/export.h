/* export: the export room's contract, all that other rooms may call: a
 * reproducer (or a run) handed on to whoever acts on it next: a person
 * (`gmfuzz show`: the verdict, the classes and the differing elements side
 * by side), sglang's test suite (`gmfuzz export pytest`: a standalone
 * pytest file) and the regression corpus (`gmfuzz promote`). The embedded
 * pytest template (export_pytest_template.h) is private to the room.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "triage.h"

/* ---- a run for a person: `gmfuzz show` (export_show.c) ---- */

/* One run's differences for a person (`gmfuzz show`): the verdict,
 * the signature and its classes, the errors, and the differing elements
 * side by side, each with its own class (triage_classify_element):
 *
 *   buffer[index]             reference        fused  class
 *   page_table[0][0]                 -1            0  negative_token_rounding
 *
 * Listed are the elements that the verdict's level compares; elements
 * that differ where live does not look are counted, not listed.
 */

typedef struct {
    gm_buf_id buf;
    int rank;
    size_t index[2];
    int64_t reference, fused;
    triage_class cls;
} export_show_row;

typedef struct {
    export_show_row *rows;  /* the first `max_rows` compared differing elements */
    size_t n_rows;
    size_t compared;    /* compared elements that differ (n_rows of them listed) */
    size_t uncompared;  /* elements that differ where the level does not compare */
    unsigned misshaped; /* bit (1u << gm_buf_id): on one side only, or shaped differently */
} export_show_diffs;

/* The differing elements of `r`, in buffer order, then row-major. A run
 * whose buffers were not compared (legacy raised, fused out of bounds) has
 * none. False only when memory runs out. */
bool export_show_differences(const gm_case *c, const harness_run_result *r, size_t max_rows,
                             export_show_diffs *out, gm_error *err);
void export_show_diffs_free(export_show_diffs *d);

/* A run result made of what a vector or a reproducer records (its two
 * outputs), judged at `level`: what show displays without re-running. */
bool export_show_recorded(const gm_doc *doc, gm_compare level, harness_run_result *out, gm_error *err);

/* Prints the verdict, signature, classes, errors and at most `max_rows`
 * differing elements ("... N more" after them). */
bool export_show_result(FILE *out, const gm_case *c, const harness_run_result *r, size_t max_rows,
                        gm_error *err);

/* ---- a case for a person (export_show_case.c) ---- */

/* A case in a few lines, for a person triaging it (`gmfuzz
 * show`): mode and shape, the lengths, the pool, the SWA part and the
 * mode's query-side inputs. Lists longer than a dozen values are cut to
 * their first and last few, with their length. */

/* Lists at most this many values whole; longer ones are abbreviated. */
#define EXPORT_SHOW_CASE_LIST_MAX 12

void export_show_case(FILE *out, const gm_case *c);

/* ---- a reproducer as a pytest file: `gmfuzz export pytest` (export_pytest.c) ---- */

/* A reproducer as a standalone pytest file, so that a triager
 * can drop it into sglang's own test suite.
 *
 * The file is the reproducer's data as Python constants (the case, the
 * prior contents of the buffers, what gmfuzz recorded for both sides, the
 * live columns at the recorded level) followed by a fixed template
 * (export/export_pytest_template.py, embedded at build time) with two tests:
 *
 *   test_legacy_sequence  the legacy ATen op sequence (SPEC section 2) in
 *                         torch must give the recorded reference, or raise
 *                         where it raised;
 *   test_fused_kernel     update_trtllm_mha_graph_metadata, imported from
 *                         $GMFUZZ_FUSED_MODULE or sglang's module, must
 *                         leave the recorded fused buffers (never run when
 *                         the fused kernel would overrun its buffers).
 *
 * The header docstring names the reproducer, its signature, the first
 * difference and the gmfuzz version that wrote the file.
 */

typedef struct {
    const char *source;    /* the reproducer's path, as the header shows it */
    const char *exporter;  /* "gmfuzz 0.1.0": the tool writing the file */
    const gm_outputs *fused_model; /* found on an external target: what the fused model
                                      writes (the file expects it); NULL: the recording */
} export_pytest_origin;

/* Writes the pytest file of reproducer `doc` to `out`. Fails (err set) for
 * a document that is not a reproducer, or when writing fails. */
bool export_pytest_write(FILE *out, const gm_doc *doc, const export_pytest_origin *origin,
                         gm_error *err);

/* ---- a drift reproducer as a conformance vector: `gmfuzz vector` (export_vector.c) ---- */

/* Writes the gmfuzz-vector-v1 of a three-way reproducer `doc` (one that
 * carries "torch_reference", docs/FORMATS.md) to `path`, atomically: its
 * case, real PyTorch's legacy outputs as "legacy" (its exception as their
 * "error" when it raised), and the fused buffers it recorded (gmfuzz's
 * fused model for one found on an external target) as "fused". Replayed,
 * the vector fails wherever the C reference leaves PyTorch. Fails (err
 * set) for any other document. */
bool export_vector_write(const char *path, const gm_doc *doc, gm_error *err);

/* ---- a reproducer into the regression corpus: `gmfuzz promote` (export_promote.c) ---- */

/* Adds a reproducer to the regression corpus (corpus/regress/),
 * the folder that every CI run replays.
 *
 * Two steps, so that the caller names the file in between:
 *
 *   prepare  reads the reproducer, replays it, and refuses it (a value, not
 *            an error) unless the replay gives the recorded verdict, outputs
 *            and signature; a reproducer that is not minimized is refused
 *            too, unless the options ask to minimize it (keeping the
 *            signature, minimize/minimize.h);
 *   commit   writes it into the corpus (a complete gmfuzz-repro-v1 as
 *            repro_write writes it, atomically), deduplicated by
 *            signature: when a corpus file already holds the signature, the
 *            smaller of the two files stays (the existing one on a tie).
 */

typedef struct {
    bool minimize;      /* minimize a reproducer that records minimized: false */
    size_t max_runs;    /* the minimizer's budget; 0: no limit */
    gm_limits limits;   /* reader limits, for the reproducer and the corpus */
} export_promote_options;

/* A reproducer on its way into the corpus. */
typedef struct {
    gm_doc doc;             /* as read; doc.c is minimized in place when asked */
    harness_run_result run;      /* the last run of doc.c */
    triage_finding finding; /* its classification */
    bool minimized_now;     /* prepare minimized it */
    size_t minimize_runs;
    bool refused;
    char why[896];          /* why it was refused */
} export_promote_candidate;

void export_promote_candidate_init(export_promote_candidate *cand);
void export_promote_candidate_free(export_promote_candidate *cand);

/* Fills `cand` from the reproducer at `path`. False only when the file
 * cannot be read or a run failed (err set); a refusal is a success with
 * cand->refused set. */
bool export_promote_prepare(harness_backend *b, const char *path, const export_promote_options *o,
                            export_promote_candidate *cand, gm_error *err);

typedef enum {
    EXPORT_PROMOTE_ADDED,  /* no corpus file held the signature */
    EXPORT_PROMOTE_REPLACED,   /* the new file is smaller than the one that held it */
    EXPORT_PROMOTE_KEPT,   /* a corpus file holds it and is no larger: unchanged */
} export_promote_action;

typedef struct {
    export_promote_action action;
    char path[PATH_MAX];       /* the corpus file that holds the signature now */
    long bytes;                /* its size */
    char other[PATH_MAX];      /* replaced: the file removed; kept: "" */
    long other_bytes;          /* replaced: its size; kept: the rejected rewrite's size */
} export_promote_result;

/* Writes `cand` into `corpus_dir` as `file_name` unless the corpus already
 * holds its signature in a file no larger. `backend` is what ran it. */
bool export_promote_commit(const export_promote_candidate *cand, harness_backend_kind backend,
                           const char *corpus_dir, const char *file_name, const gm_limits *lim,
                           export_promote_result *res, gm_error *err);

/* The default corpus: the source tree's corpus/regress (fixed at build
 * time, as the default baseline corpus/known.json is). */
const char *export_promote_default_corpus(void);

const char *export_promote_action_name(export_promote_action a);

#endif
