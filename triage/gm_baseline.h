/* gm_baseline: the accepted differences (corpus/known.json).
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
 * A finding is known when its signature is listed, or its bucket
 * (gm_bucket.h: one root cause, whatever co-occurs), or when every one of
 * its classes is listed under "classes" with decision "accepted" (and it
 * has no `unclassified` part). Everything else is new: a failure. "buckets"
 * is optional: baselines written before it exist keep their meaning.
 */
#ifndef GM_BASELINE_H
#define GM_BASELINE_H

#include <stdbool.h>

#include "gm_classify.h"
#include "gm_error.h"

typedef struct gm_baseline gm_baseline;

typedef enum { GM_DECISION_ACCEPTED, GM_DECISION_BUG, GM_DECISION_WONTFIX } gm_decision;

bool gm_baseline_load(const char *path, gm_baseline **out, gm_error *err);
/* An empty baseline: nothing is known (what --strict-baseline uses). */
bool gm_baseline_empty(gm_baseline **out, gm_error *err);
void gm_baseline_free(gm_baseline *b);

bool gm_baseline_is_known(const gm_baseline *b, const gm_finding *f);

/* What the baseline says of one finding. A listed signature wins over the
 * classes; a finding with an `unclassified` part, or a class not accepted,
 * is new. A `bug` or `wontfix` entry is known (a person has triaged it). */
typedef struct {
    bool known;
    bool by_signature;          /* listed under "signatures", not by classes */
    gm_decision decision;       /* meaningful when known */
    const char *explanation;    /* points into the baseline; NULL when new */
    bool by_bucket;             /* listed under "buckets" */
} gm_baseline_entry;

void gm_baseline_lookup(const gm_baseline *b, const gm_finding *f, gm_baseline_entry *out);

/* "accepted", "bug", "wontfix". */
const char *gm_decision_name(gm_decision d);

#endif
