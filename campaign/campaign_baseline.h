/* campaign_baseline: the baseline a campaign gives its engine targets
 * (GMFUZZ_BASELINE), DIR/baseline.json.
 *
 * It is the user's baseline plus every signature this campaign has already
 * found (decision "bug"), so a restarted job does not stop again on a
 * failure that is already saved and goes on looking for new ones. With
 * --strict-baseline it starts from nothing known instead: every mismatch
 * is a failure the first time its signature shows. It is rewritten
 * (atomically) whenever a new signature appears; jobs read it when they
 * (re)start.
 */
#ifndef CAMPAIGN_BASELINE_H
#define CAMPAIGN_BASELINE_H

#include <stdbool.h>

#include "campaign_failures.h"
#include "gm_error.h"

/* Writes `out`: the baseline document at `source` (NULL: an empty one),
 * with the signatures of `found` added. `dir` names the campaign in the
 * added entries' explanations. */
bool campaign_baseline_write(const char *source, const campaign_failures *found, const char *dir,
                             const char *out, gm_error *err);

#endif
