/* cli_finding: whether a reproducer's recorded signature and classes are
 * what the classifier (triage/gm_classify.h) computes (issue 11, item 5).
 *
 * triage, report and the baseline trust a reproducer's "signature" field;
 * a stale or tampered one would hide a finding as known. replay and export
 * check it here. The classes are computed from the recorded outputs and
 * verdict: the caller has replayed the document first, so they are those
 * of a new run (replay compares both outputs and the verdict), and no
 * second run is needed.
 */
#ifndef CLI_FINDING_H
#define CLI_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_json.h"

/* True when `doc` (a reproducer) records the signature and the set of
 * classes the classifier gives its recorded outputs; else false with `why`
 * naming both: "signature: recorded A, recomputed B (classes: recorded
 * [a], recomputed [b])". A document that is not a reproducer passes. */
bool cli_finding_check(const gm_doc *doc, char *why, size_t size);

#endif
