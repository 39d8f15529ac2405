/* repro_rundir_bucket: a run folder's signatures grouped by bucket (their root
 * cause, triage_bucket.h), for triage and reports. Each file's bucket is
 * classified from its recorded outputs, and a signature is kept per
 * bucket, as the campaign keeps them (campaign_failures.h): the summary
 * a campaign prints and the reports of its folder list the same buckets. */
#ifndef REPRO_RUNDIR_BUCKET_H
#define REPRO_RUNDIR_BUCKET_H

#include <stdbool.h>
#include <stddef.h>

#include "triage.h"
#include "gm_error.h"
#include "repro.h"

/* The bucket of reproducer file `path`, from the outputs it recorded, into
 * `out`; a file whose recorded signature is not what those outputs give
 * (repro_check) gets REPRO_CHECK_STALE_BUCKET and `*stale` says why
 * (malloc'd; NULL otherwise); a file that cannot be read back in full gets
 * "unreadable|-|-". False only when memory runs out. */
bool repro_rundir_bucket_of(const char *path, char *out, size_t size, char **stale);

/* Fills r->buckets (and each signature's `bucket`) from r->sigs and their
 * keys; false only when memory runs out. */
bool repro_rundir_bucket_build(repro_rundir *r, const triage_baseline *baseline, gm_error *err);

void repro_rundir_bucket_free(repro_rundir *r);

#endif
