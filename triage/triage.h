/* triage: the triage room's contract, all that other rooms may call:
 * the class of each difference, a run's finding and its signature
 * (triage_classify.c), its root-cause bucket (triage_bucket.c), and the
 * baseline of accepted findings (triage_baseline.c). The predictions that
 * the classes check (triage_predict.h) and the bookkeeping of a bucket
 * (triage_bucket.h, which also describes the bucket's format) are private
 * to the room.
 *
 * Classes. Each difference between the reference and the fused kernel is
 * named with one class of the known differences (docs/SEMANTICS.md, SPEC
 * section 4), and ONLY when that class's cause is present in the inputs for
 * that very element AND both sides wrote there exactly the values that the
 * class's rules predict (triage_predict: the legacy value of SPEC section 2
 * and the fused value of SPEC section 3, computed here from the inputs);
 * anything else is `unclassified`, a bug until a person says otherwise.
 * Four classes beyond the SPEC's nine name inputs that no server produces
 * (a max_seq_pages below the live pages, lengths past int32, mapping values
 * below -1, a negative q_stride): known causes, so that a campaign does not
 * drown in them; --strict-baseline still reports them.
 *
 * A finding's signature is the stable key for deduplication and baselines:
 *   "<mode>|<class>+<class>...|<buffer>+<buffer>..."
 * with classes and buffers in their enum order, e.g.
 *   "decode|negative_token_rounding|page_table"
 *   "draft_decode|legacy_raises|-"       (no buffers compared)
 *
 * The baseline (corpus/known.json):
 *
 *   {"format": "gmfuzz-known-v1",
 *    "classes":    [{"class": "stale_tail", "decision": "accepted",
 *                    "explanation": "one line"}, ...],
 *    "signatures": [{"signature": "decode|...|page_table",
 *                    "decision": "accepted|bug|wontfix",
 *                    "explanation": "one line"}, ...],
 *    "buckets":    [{"bucket": "cu_seqlens_k|live@rows<32|below",
 *                    "decision": "accepted|bug|wontfix",
 *                    "explanation": "one line"}, ...]}
 *
 * A finding is known when its signature is listed, or its bucket (one root
 * cause, whatever co-occurs), or when every one of its classes is listed
 * under "classes" with decision "accepted" (and it has no `unclassified`
 * part). Everything else is new: a failure. "buckets" is optional:
 * baselines written before it exist keep their meaning.
 */
#ifndef TRIAGE_H
#define TRIAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "harness.h"

/* ---- classes, findings and signatures (triage_classify.c) ---- */

typedef enum {
    TRIAGE_CLASS_STALE_TAIL,
    TRIAGE_CLASS_STALE_HOST_SEQLENS,
    TRIAGE_CLASS_NEGATIVE_TOKEN_ROUNDING,
    TRIAGE_CLASS_SENTINEL_WRAP,
    TRIAGE_CLASS_SENTINEL_DEEP_NEGATIVE,
    TRIAGE_CLASS_SWA_INT32_TRUNCATION,
    TRIAGE_CLASS_OUT_CACHE_LOC_ABSENT,
    TRIAGE_CLASS_LEGACY_RAISES,
    TRIAGE_CLASS_FUSED_OUT_OF_BOUNDS,
    /* gmfuzz's own: inputs outside what a server produces, where the two
     * sides differ for a reason found in the inputs (docs/SEMANTICS.md) */
    TRIAGE_CLASS_NARROW_MAX_SEQ_PAGES,
    TRIAGE_CLASS_SEQLEN_INT32_WRAP,
    TRIAGE_CLASS_NEGATIVE_SWA_MAPPING,
    TRIAGE_CLASS_NEGATIVE_Q_STRIDE,
    /* an external target (docs/TARGETS.md) raised, died or did not answer:
     * the fused kernel raises nothing */
    TRIAGE_CLASS_TARGET_RAISED,
    TRIAGE_CLASS_TARGET_CRASHED,
    TRIAGE_CLASS_TARGET_HUNG,
    TRIAGE_CLASS_TARGET_DEVIATES, /* returned other buffers than gmfuzz's fused model */
    TRIAGE_CLASS_TARGET_WROTE_INPUT, /* changed an input buffer (a target or a GPU backend) */
    /* the C reference and real PyTorch disagree (--reference python:...);
     * no baseline accepts it */
    TRIAGE_CLASS_REFERENCE_DRIFT,
    TRIAGE_CLASS_UNCLASSIFIED,
    TRIAGE_CLASS_COUNT
} triage_class;

/* Room for the longest signature triage_finding_sign can write (every class
 * and every buffer of the longest mode's name: 357 bytes). */
#define TRIAGE_SIGNATURE_MAX 512

/* Room for the longest bucket triage_bucket_write can write. */
#define TRIAGE_BUCKET_MAX 192

typedef struct {
    gm_status status;
    gm_mode mode;
    unsigned classes;   /* bit (1u << triage_class) */
    unsigned buffers;   /* bit (1u << gm_buf_id), as in the verdict */
    char signature[TRIAGE_SIGNATURE_MAX];
    char bucket[TRIAGE_BUCKET_MAX]; /* the root-cause key (triage_bucket.h); "" for a
                                       match, or when parsed from a signature alone */
} triage_finding;

const char *triage_class_name(triage_class k);
bool triage_class_from_name(const char *name, triage_class *out);

/* Classifies a finished run (harness_run_case). A `match` verdict gives a
 * finding with no classes and status match. */
void triage_classify(const gm_case *c, const harness_run_result *r, triage_finding *out);

/* The class of one element that differs: element `flat` (row-major) of
 * buffer `id`, which the caller found to differ where the verdict's level
 * compares. The classes of triage_classify are the union of this over all
 * such elements. A run whose buffers were not compared (legacy raised,
 * fused out of bounds) gives its one class for every element. */
triage_class triage_classify_element(const gm_case *c, const harness_run_result *r, gm_buf_id id,
                                     size_t flat);

/* Writes the signature of (mode, classes, buffers) into out->signature. */
void triage_finding_sign(triage_finding *f);

/* Parses a signature string back into mode, classes and buffers (status is
 * left MISMATCH, or the class's status for legacy_raises and
 * fused_out_of_bounds; out->signature is `s`); false, with `err` quoting
 * `s` and naming the part (the count of parts, an unknown mode, class or
 * buffer, or names out of order: "... is not canonical; write it as ..."),
 * when `s` is not a signature triage_finding_sign could have written. */
bool triage_finding_parse(const char *s, triage_finding *out, gm_error *err);

/* ---- the baseline (triage_baseline.c) ---- */

typedef struct triage_baseline triage_baseline;

typedef enum {
    TRIAGE_DECISION_ACCEPTED,
    TRIAGE_DECISION_BUG,
    TRIAGE_DECISION_WONTFIX
} triage_decision;

bool triage_baseline_load(const char *path, triage_baseline **out, gm_error *err);
/* An empty baseline: nothing is known (what --strict-baseline uses). */
bool triage_baseline_empty(triage_baseline **out, gm_error *err);
void triage_baseline_free(triage_baseline *b);

bool triage_baseline_is_known(const triage_baseline *b, const triage_finding *f);

/* What the baseline says of one finding. A listed signature wins over the
 * classes; a finding with an `unclassified` part, or a class not accepted,
 * is new. A `bug` or `wontfix` entry is known (a person has triaged it). */
typedef struct {
    bool known;
    bool by_signature;          /* listed under "signatures", not by classes */
    triage_decision decision;   /* meaningful when known */
    const char *explanation;    /* points into the baseline; NULL when new */
    bool by_bucket;             /* listed under "buckets" */
} triage_baseline_entry;

void triage_baseline_lookup(const triage_baseline *b, const triage_finding *f,
                            triage_baseline_entry *out);

/* "accepted", "bug", "wontfix". */
const char *triage_decision_name(triage_decision d);

#endif
