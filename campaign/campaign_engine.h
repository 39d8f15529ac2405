/* campaign_engine: how each engine is run and read.
 *
 *   libFuzzer  N independent jobs on one shared corpus folder (-reload
 *              picks up each other's units). A target saves each new
 *              signature once and goes on (GMFUZZ_KEEP_GOING=1); with
 *              --abort-on-failure it aborts at each failure instead (the
 *              engine records a crash). A job that ends early for any
 *              reason (that abort, a crash, out of memory) is restarted
 *              with the time (and --runs budget) left, on a baseline that
 *              now lists what was found, so it goes on looking for new
 *              ones. Stats come from each job's status lines.
 *   AFL++      one main instance (-M main) and N-1 secondaries (-S sec-K)
 *              on DIR/afl, with the dictionary; AFL++ itself carries on
 *              after a crash. Stats come from each fuzzer_stats file, which
 *              AFL++ 4 rewrites once a minute: its live numbers lag.
 *
 * The environment of every target: GMFUZZ_FAILURE_DIR, GMFUZZ_BASELINE,
 * GMFUZZ_COMPARE, GMFUZZ_KEEP_GOING, GMFUZZ_STRICT_BASELINE (always 0:
 * --strict-baseline is a baseline with nothing known, so that signatures
 * found are still known to restarted jobs; campaign_baseline.h).
 */
#ifndef CAMPAIGN_ENGINE_H
#define CAMPAIGN_ENGINE_H

#include <stdbool.h>

#include "campaign_argv.h"
#include "campaign_setup.h"
#include "campaign_worker.h"

/* The command line for (re)starting `w` with `time_left_s` seconds left. */
void campaign_engine_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                          campaign_argv *argv);

/* The extra environment of every engine process. */
void campaign_engine_env(const campaign_setup *s, campaign_argv *env);

/* Reads what `w` reported since the last call. */
void campaign_engine_refresh(const campaign_setup *s, campaign_worker *w, double now_s);

/* Whether a run of `w` that just ended should run again (time and budget
 * permitting): libFuzzer jobs end at every failure; AFL++ runs to the end. */
bool campaign_engine_restarts(const campaign_setup *s, const campaign_worker *w);

/* Units in the campaign's corpus. */
uint64_t campaign_engine_corpus(const campaign_setup *s, const campaign_worker *workers, int n);

#endif
