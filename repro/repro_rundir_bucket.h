/* repro_rundir_bucket: a run folder's signatures grouped by bucket (their root
 * cause, triage_bucket.h), for triage and reports: the bucket of each
 * signature's representative file, classified from its recorded outputs. */
#ifndef REPRO_RUNDIR_BUCKET_H
#define REPRO_RUNDIR_BUCKET_H

#include <stdbool.h>

#include "triage.h"
#include "gm_error.h"
#include "repro.h"

/* Fills r->buckets (and each signature's `bucket`) from r->sigs; false
 * only when memory runs out. A file that cannot be read back in full gets
 * the bucket "unreadable|-|-". */
bool repro_rundir_bucket_build(repro_rundir *r, const triage_baseline *baseline, gm_error *err);

void repro_rundir_bucket_free(repro_rundir *r);

#endif
