/* gm_classify: names each difference between the reference and the fused
 * kernel with one class of the known differences (docs/SEMANTICS.md, SPEC
 * section 4), and ONLY when that class's cause is present in the inputs for
 * that very element AND both sides wrote there exactly the values that the
 * class's rules predict (gm_predict: the legacy value of SPEC section 2 and
 * the fused value of SPEC section 3, computed here from the inputs);
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
 */
#ifndef GM_CLASSIFY_H
#define GM_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_bucket.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "harness.h"

typedef enum {
    GM_CLASS_STALE_TAIL,
    GM_CLASS_STALE_HOST_SEQLENS,
    GM_CLASS_NEGATIVE_TOKEN_ROUNDING,
    GM_CLASS_SENTINEL_WRAP,
    GM_CLASS_SENTINEL_DEEP_NEGATIVE,
    GM_CLASS_SWA_INT32_TRUNCATION,
    GM_CLASS_OUT_CACHE_LOC_ABSENT,
    GM_CLASS_LEGACY_RAISES,
    GM_CLASS_FUSED_OUT_OF_BOUNDS,
    /* gmfuzz's own: inputs outside what a server produces, where the two
     * sides differ for a reason found in the inputs (docs/SEMANTICS.md) */
    GM_CLASS_NARROW_MAX_SEQ_PAGES,
    GM_CLASS_SEQLEN_INT32_WRAP,
    GM_CLASS_NEGATIVE_SWA_MAPPING,
    GM_CLASS_NEGATIVE_Q_STRIDE,
    /* an external target (docs/TARGETS.md) raised, died or did not answer:
     * the fused kernel raises nothing */
    GM_CLASS_TARGET_RAISED,
    GM_CLASS_TARGET_CRASHED,
    GM_CLASS_TARGET_HUNG,
    GM_CLASS_TARGET_DEVIATES, /* returned other buffers than gmfuzz's fused model */
    /* the C reference and real PyTorch disagree (--reference python:...);
     * no baseline accepts it */
    GM_CLASS_REFERENCE_DRIFT,
    GM_CLASS_UNCLASSIFIED,
    GM_CLASS_COUNT
} gm_class;

/* Room for the longest signature gm_finding_sign can write (every class
 * and every buffer of the longest mode's name: 357 bytes). */
#define GM_SIGNATURE_MAX 512

typedef struct {
    gm_status status;
    gm_mode mode;
    unsigned classes;   /* bit (1u << gm_class) */
    unsigned buffers;   /* bit (1u << gm_buf_id), as in the verdict */
    char signature[GM_SIGNATURE_MAX];
    char bucket[GM_BUCKET_MAX]; /* the root-cause key (gm_bucket.h); "" for a match, or
                                   when parsed from a signature alone */
} gm_finding;

const char *gm_class_name(gm_class k);
bool gm_class_from_name(const char *name, gm_class *out);

/* Classifies a finished run (harness_run_case). A `match` verdict gives a
 * finding with no classes and status match. */
void gm_classify(const gm_case *c, const harness_run_result *r, gm_finding *out);

/* The class of one element that differs: element `flat` (row-major) of
 * buffer `id`, which the caller found to differ where the verdict's level
 * compares. The classes of gm_classify are the union of this over all such
 * elements. A run whose buffers were not compared (legacy raised, fused out
 * of bounds) gives its one class for every element. */
gm_class gm_classify_element(const gm_case *c, const harness_run_result *r, gm_buf_id id,
                             size_t flat);

/* Writes the signature of (mode, classes, buffers) into out->signature. */
void gm_finding_sign(gm_finding *f);

/* Parses a signature string back into mode, classes and buffers (status is
 * left MISMATCH, or the class's status for legacy_raises and
 * fused_out_of_bounds; out->signature is `s`); false, with `err` quoting
 * `s` and naming the part (the count of parts, an unknown mode, class or
 * buffer, or names out of order: "... is not canonical; write it as ..."),
 * when `s` is not a signature gm_finding_sign could have written. */
bool gm_finding_parse(const char *s, gm_finding *out, gm_error *err);

#endif
