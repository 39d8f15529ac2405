/* repro_rundir_json: a loaded run folder as a gmfuzz-triage-v1 document, what
 * `gmfuzz triage --json` prints (docs/FORMATS.md, "Triage"). */
#ifndef REPRO_RUNDIR_JSON_H
#define REPRO_RUNDIR_JSON_H

#include <cjson/cJSON.h>

#include "repro_rundir.h"

#define REPRO_RUNDIR_JSON_FORMAT "gmfuzz-triage-v1"

/* The document for `r`, judged against the baseline at `baseline_path`
 * (NULL: nothing was known, as with --strict-baseline). NULL when memory
 * runs out. */
cJSON *repro_rundir_json(const repro_rundir *r, const char *baseline_path);

#endif
