/* minimize: structure-level delta debugging of a failing case that keeps
 * the SAME signature: drop batch rows, shrink the pool, max_context_len and
 * the mapping, move values toward 0/1, drop optional parts (SWA page table,
 * out_cache_loc entries, init, seq_lens_cpu), to a fixed point.
 * Deterministic: the same case and build give the same result.
 */
#ifndef MINIMIZE_H
#define MINIMIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "gm_case.h"
#include "triage.h"
#include "gm_error.h"
#include "gm_oracle.h"

typedef struct {
    size_t max_runs;    /* budget of differential runs; 0: no limit */
    size_t runs;        /* out: runs spent */
    double deadline_s;  /* CLOCK_MONOTONIC seconds to stop by (between runs); 0: none */
    bool out_of_time;   /* out: stopped at the deadline, short of a fixed point (the
                         * case still has the signature: smaller, not smallest) */
} minimize_stats;

/* The clock of minimize_stats.deadline_s. */
double minimize_clock(void);

/* Replaces *c by a smaller case whose run (on `b`, at `level`) has the same
 * signature as `target`. False only when a run itself failed (err set). */
bool minimize_case(harness_backend *b, gm_compare level, const triage_finding *target, gm_case *c,
                   minimize_stats *stats, gm_error *err);

#endif
