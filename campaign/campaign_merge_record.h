/* campaign_merge_record: what a merge records in OUT.
 *
 *   OUT/sources/K-NAME/campaign.json, stats.jsonl  source K's own record
 *                   and samples, copied as they were
 *   OUT/campaign.json  gmfuzz-campaign-v1 with "merged": true, totals over
 *                   the sources (jobs, execs, restarts summed; started_at
 *                   the earliest, ended_at the latest, elapsed_s the
 *                   longest; engine, backend, compare theirs when they
 *                   agree, else "mixed"), coverage and corpus of the merged
 *                   corpus, "corpus_merge" (how it was merged) and
 *                   "sources": one entry per source (docs/FORMATS.md).
 * The reports read "sources" back (repro/repro_rundir_sources.h). */
#ifndef CAMPAIGN_MERGE_RECORD_H
#define CAMPAIGN_MERGE_RECORD_H

#include <stdbool.h>

#include "campaign_merge.h"

/* Copies each source's campaign.json and stats.jsonl under OUT/sources/. */
bool campaign_merge_record_sources(const campaign_merge_options *o, campaign_merge_source *src,
                                   size_t n, gm_error *err);

/* Everything the merged record says, beside the sources. */
typedef struct {
    const campaign_merge_corpus_result *corpus;
    const campaign_merge_failures_result *failures;
    size_t buckets;            /* of the merged folder */
    const char *problem;       /* NULL: none */
    int exit_code;
} campaign_merge_record_outcome;

/* Writes OUT/campaign.json (atomically). */
bool campaign_merge_record_write(const campaign_merge_options *o, const campaign_merge_source *src,
                                 size_t n, const campaign_merge_record_outcome *how,
                                 gm_error *err);

#endif
