/* repro_rundir_sources: the "sources" of a merged campaign.json (`gmfuzz
 * merge`, docs/FORMATS.md): one entry per campaign folder that went into
 * it, for the per-runner lines of the reports.
 *
 * A record without "sources" (every record `gmfuzz fuzz` writes) has
 * none; one with it must hold a list of objects, and a key that is
 * present must have its type (the error names the entry and the key). */
#ifndef REPRO_RUNDIR_SOURCES_H
#define REPRO_RUNDIR_SOURCES_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "gm_error.h"
#include "repro.h"

/* Reads root's "sources" (absent: none) into `out`. */
bool repro_rundir_sources_read(const cJSON *root, repro_rundir_campaign *out, gm_error *why);

void repro_rundir_sources_free(repro_rundir_campaign *c);

#endif
