/* campaign_merge_failures: the sources' failures/ and repros/ into OUT,
 * deduplicated by signature.
 *
 * Every *.json below a source's failures/ and repros/ is read for its
 * signature and size (repro.h; a file that is not a reproducer
 * is counted and skipped, as triage does). Per signature, the smallest
 * failing input (fewest bytes, then fewest rows, then the earlier source)
 * goes to OUT/failures/ and the smallest minimized reproducer to
 * OUT/repros/, under their own names (a name taken by another signature
 * gets the source's number in front). So the merged folder holds exactly
 * the union of the sources' signatures, each with its smallest file;
 * the bucket of each comes with its file. */
#ifndef CAMPAIGN_MERGE_FAILURES_H
#define CAMPAIGN_MERGE_FAILURES_H

#include <stdbool.h>

#include "campaign_merge.h"

bool campaign_merge_failures_run(const campaign_merge_options *o,
                                 const campaign_merge_source *src, size_t n,
                                 campaign_merge_failures_result *out, gm_error *err);

#endif
