/* campaign_status: the one-line progress report of a running campaign,
 * printed every second on a terminal (rewritten in place) and every ten
 * seconds otherwise (one line each, for logs). */
#ifndef CAMPAIGN_STATUS_H
#define CAMPAIGN_STATUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double elapsed_s;
    double budget_s;        /* the campaign's time limit */
    uint64_t execs;         /* over all jobs and restarts */
    uint64_t exec_per_sec;  /* over all jobs, now */
    uint64_t coverage;      /* the best job's coverage counter */
    uint64_t corpus;        /* units in the shared corpus */
    size_t signatures;      /* distinct signatures among the saved failures */
    size_t failures;        /* failure files saved */
    int jobs_running;
    int jobs;
} campaign_status;

/* "[  12s/60s] execs 1.23M  exec/s 20.5k  cov 812  corpus 310  signatures 2
 *  (5 failures)  jobs 2/2" (one line) */
void campaign_status_format(const campaign_status *s, char *out, size_t size);

#endif
