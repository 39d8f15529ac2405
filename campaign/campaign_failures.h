/* campaign_failures: what the engines' targets saved in DIR/failures/.
 *
 * fuzz_check writes every failing input there (an unminimized
 * gmfuzz-repro-v1, failure-<key>-<pid>-<execs>.json, the key a hash of
 * its signature and bucket: repro.h; written atomically)
 * before the target aborts. The driver reads each new file once, groups
 * the files by their bucket (classified from the file's recorded outputs,
 * repro_recorded_finding) and "signature" field, and keeps for each signature the
 * smallest file (the one to minimize) and when it was first seen. Files
 * are never moved or deleted.
 */
#ifndef CAMPAIGN_FAILURES_H
#define CAMPAIGN_FAILURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "triage.h"

typedef struct {
    char signature[TRIAGE_SIGNATURE_MAX];
    char bucket[TRIAGE_BUCKET_MAX]; /* its root-cause key (triage_bucket.h): a signature is kept
                                   per bucket, the finer key inside it */
    size_t count;           /* failure files with this signature */
    char *smallest;         /* path of the smallest of them */
    long long smallest_bytes;
    double first_s;         /* seconds after the campaign start the first was written */
    uint64_t first_execs;   /* found.execs of that first file (its job's count) */
    char *first;            /* path of that first file */
} campaign_signature;

typedef struct {
    char **names;           /* file names already read, sorted */
    size_t n_names, cap_names;
    campaign_signature *sigs;
    size_t n_sigs, cap_sigs;
    size_t files;           /* failure files read */
    size_t unreadable;      /* failure files that are not reproducers */
    char last_problem[512]; /* why the last unreadable one was */
} campaign_failures;

void campaign_failures_init(campaign_failures *f);
void campaign_failures_free(campaign_failures *f);

/* Reads the failure files of `dir` not read before; `start` is the
 * campaign's start (CLOCK_REALTIME). Returns how many new signatures
 * appeared. A missing folder has no files. */
size_t campaign_failures_scan(campaign_failures *f, const char *dir, struct timespec start);

/* The same, reading at most `max_files` new files, and no more once
 * `budget_s` seconds went by (0: no limit); the others are read at a later
 * call: a bounded piece of work for the driver's loop. `more` (may be
 * NULL): whether it stopped early, so more may be waiting. */
size_t campaign_failures_scan_some(campaign_failures *f, const char *dir, struct timespec start,
                                   size_t max_files, double budget_s, bool *more);

/* Orders the signatures by bucket, the buckets by when their first
 * signature was found, and inside a bucket by when each was first found
 * (then by name): the order of the summary. */
void campaign_failures_sort(campaign_failures *f);

/* Whether `name` is a failure file name (failure-*.json). */
bool campaign_failures_is_failure_name(const char *name);

#endif
