/* campaign_merge: `gmfuzz merge OUT DIR...`, several campaign folders
 * (several runners, GPUs or nights) made into one (docs/FUZZING.md,
 * "Merging campaigns"):
 *
 *   OUT/corpus/     the corpora merged by coverage (libFuzzer's -merge=1
 *                   with the differential target the campaigns ran), or,
 *                   where no libFuzzer target exists, their union,
 *                   deduplicated by content (campaign_merge_corpus.h)
 *   OUT/failures/, OUT/repros/  one failing input and one minimized
 *                   reproducer per signature, the smallest of the sources'
 *                   (campaign_merge_failures.h)
 *   OUT/sources/K-NAME/  source K's campaign.json and stats.jsonl, as they
 *                   were (the stats are kept per source: their clocks and
 *                   jobs are their own)
 *   OUT/campaign.json  a gmfuzz-campaign-v1 record of the merge, listing
 *                   its sources (campaign_merge_record.h)
 *   OUT/known.json  the first source's baseline copy
 *   OUT/report.*    the reports of the merged folder (reports/report.h),
 *                   with one line per source
 *
 * OUT is locked as a campaign's --out is (campaign_lock.h), must be new
 * or empty, and must not be one of the sources; every file gmfuzz writes
 * there is written atomically (gm_file.h). Nothing in the sources is
 * changed. */
#ifndef CAMPAIGN_MERGE_H
#define CAMPAIGN_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "campaign.h"
#include "campaign_setup.h"
#include "gm_error.h"
#include "repro.h"



/* One source folder, read. */
typedef struct {
    const char *path;                 /* as given */
    char name[128];                   /* "K-BASENAME", its folder under OUT/sources/ */
    repro_rundir_campaign record;     /* its campaign.json */
    size_t signatures, buckets, inputs; /* what its failures/ and repros/ hold */
    bool has_stats;                   /* it had a stats.jsonl (copied) */
} campaign_merge_source;

/* How the corpora were merged (campaign_merge_corpus.h). */
typedef struct {
    bool by_libfuzzer;                /* false: the union by content */
    char binary[CAMPAIGN_PATH_MAX];   /* the libFuzzer target used */
    char note[CAMPAIGN_PATH_MAX + 200]; /* why the union, when it is one */
    size_t files_in;                  /* corpus files over all sources */
    size_t files_out;                 /* in OUT/corpus */
    long long new_features, new_edges; /* libFuzzer's MERGE-OUTER line; -1: none */
} campaign_merge_corpus_result;

/* Failures kept (campaign_merge_failures.h). */
typedef struct {
    size_t signatures;                /* distinct signatures over the sources */
    size_t failures_in, repros_in;    /* files read */
    size_t failures_out, repros_out;  /* files written: one per signature at most */
    size_t unreadable;                /* files that are not reproducers (skipped) */
    char last_problem[GM_ERROR_MSG_MAX];
} campaign_merge_failures_result;


/* Copies file `from` to `to` atomically; the error names both. */
bool campaign_merge_copy_file(const char *from, const char *to, gm_error *err);

/* `dir`/`name` into `out` (CAMPAIGN_PATH_MAX); false when too long. */
bool campaign_merge_join(char *out, const char *dir, const char *name, gm_error *err);

#endif
