/* gm_rundir_campaign: reads a run folder's campaign.json
 * (gmfuzz-campaign-v1, gm_rundir.h and docs/FORMATS.md) into a
 * gm_rundir_campaign.
 *
 * The document is written at a campaign's start and again at its end, so
 * a key may be absent (an older or unfinished writer): it keeps its
 * default ("", NULL, 0; exit_code -1). A key that is present must have its
 * type; null is allowed for every string and for exit_code. */
#ifndef GM_RUNDIR_CAMPAIGN_H
#define GM_RUNDIR_CAMPAIGN_H

#include <stdbool.h>

#include "gm_error.h"
#include "gm_rundir.h"

#define GM_RUNDIR_CAMPAIGN_FORMAT "gmfuzz-campaign-v1"

/* Fills `out` (present = true); the error names the file and the key. */
bool gm_rundir_campaign_read(const char *path, gm_rundir_campaign *out, gm_error *err);

/* Frees the strings `c` owns and resets it to "absent". */
void gm_rundir_campaign_free(gm_rundir_campaign *c);

#endif
