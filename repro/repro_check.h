/* repro_check: whether a reproducer's recorded signature and classes are
 * what the classifier (triage_classify.h) computes from its recorded outputs
 * (issue 11, item 5).
 *
 * A stale or tampered "signature" field would hide a finding as known.
 * replay, show and export check each document here (after replaying it, so
 * that the recorded outputs are those of a new run); triage and report
 * (repro_rundir) check each signature's representative file and give a stale
 * one its own bucket (REPRO_CHECK_STALE_BUCKET) that no baseline
 * accepts. The finding is classified from the recorded outputs and
 * verdict, as the campaign classified the run it saved.
 */
#ifndef REPRO_CHECK_H
#define REPRO_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "triage_classify.h"
#include "gm_json.h"

/* The bucket of a reproducer whose recorded signature is not what its
 * outputs give: never known, whatever the baseline lists. */
#define REPRO_CHECK_STALE_BUCKET "stale_signature|recorded|recomputed"

/* True when `doc` (a reproducer) records the signature and the set of
 * classes the classifier gives its recorded outputs; else false with `why`
 * naming both: "signature: recorded A, recomputed B (classes: recorded
 * [a], recomputed [b])". `now` (may be NULL) receives the recomputed
 * finding. A document that is not a reproducer passes. */
bool repro_check(const gm_doc *doc, triage_finding *now, char *why, size_t size);

#endif
