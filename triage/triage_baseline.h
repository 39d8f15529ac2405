/* triage_baseline: the accepted differences (corpus/known.json).
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
 * (triage_bucket.h: one root cause, whatever co-occurs), or when every one of
 * its classes is listed under "classes" with decision "accepted" (and it
 * has no `unclassified` part). Everything else is new: a failure. "buckets"
 * is optional: baselines written before it exist keep their meaning.
 */
#ifndef TRIAGE_BASELINE_H
#define TRIAGE_BASELINE_H

#include <stdbool.h>

#include "triage_classify.h"
#include "gm_error.h"

typedef struct triage_baseline triage_baseline;

typedef enum { TRIAGE_DECISION_ACCEPTED, TRIAGE_DECISION_BUG, TRIAGE_DECISION_WONTFIX } triage_decision;

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
    triage_decision decision;       /* meaningful when known */
    const char *explanation;    /* points into the baseline; NULL when new */
    bool by_bucket;             /* listed under "buckets" */
} triage_baseline_entry;

void triage_baseline_lookup(const triage_baseline *b, const triage_finding *f, triage_baseline_entry *out);

/* "accepted", "bug", "wontfix". */
const char *triage_decision_name(triage_decision d);

#endif
