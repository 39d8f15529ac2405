/* repro_rundir_campaign: reads a run folder's campaign.json
 * (gmfuzz-campaign-v1, repro_rundir.h and docs/FORMATS.md) into a
 * repro_rundir_campaign.
 *
 * The document is written at a campaign's start and again at its end, so
 * a key may be absent (an older or unfinished writer): it keeps its
 * default ("", NULL, 0; exit_code -1). A key that is present must have its
 * type; null is allowed for every string and for exit_code. */
#ifndef REPRO_RUNDIR_CAMPAIGN_H
#define REPRO_RUNDIR_CAMPAIGN_H

#include <stdbool.h>

#include "gm_error.h"
#include "repro_rundir.h"

#define REPRO_RUNDIR_CAMPAIGN_FORMAT "gmfuzz-campaign-v1"

/* Fills `out` (present = true); the error names the file and the key. */
bool repro_rundir_campaign_read(const char *path, repro_rundir_campaign *out, gm_error *err);

/* Frees the strings `c` owns and resets it to "absent". */
void repro_rundir_campaign_free(repro_rundir_campaign *c);

#endif
