/* gm_rundir_bucket: a run folder's signatures grouped by bucket (their root
 * cause, gm_bucket.h), for triage and reports: the bucket of each
 * signature's representative file, classified from its recorded outputs. */
#ifndef GM_RUNDIR_BUCKET_H
#define GM_RUNDIR_BUCKET_H

#include <stdbool.h>

#include "gm_baseline.h"
#include "gm_error.h"
#include "gm_rundir.h"

/* Fills r->buckets (and each signature's `bucket`) from r->sigs; false
 * only when memory runs out. A file that cannot be read back in full gets
 * the bucket "unreadable|-|-". */
bool gm_rundir_bucket_build(gm_rundir *r, const gm_baseline *baseline, gm_error *err);

void gm_rundir_bucket_free(gm_rundir *r);

#endif
