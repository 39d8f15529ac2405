/* campaign_stats: what a fuzzing engine reports about itself, parsed from
 * its own output.
 *
 *   libFuzzer  the status lines it prints on stderr
 *                "#262144\tpulse  cov: 812 ft: 2900 corp: 310/22Kb lim: 4096
 *                 exec/s: 21845 rss: 48Mb"   (one line)
 *              and, with -print_final_stats=1, at exit (also after a crash)
 *                "stat::number_of_executed_units: 1234567"
 *   AFL++      the "key : value" file <out>/<name>/fuzzer_stats
 *              (execs_done, execs_per_sec, corpus_count, edges_found), and
 *              the table <out>/<name>/plot_data
 */
#ifndef CAMPAIGN_STATS_H
#define CAMPAIGN_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* What an external target did in a run, from the job's
 * "stat::gmfuzz_target_*" lines (fuzz/fuzz_harness.c prints them). */
typedef struct {
    uint64_t crashed, hung;       /* its workers replaced after a crash, a hang */
    uint64_t unreliable_crashed;  /* crashes and hangs that did not happen again */
    uint64_t unreliable_hung;     /* on a fresh worker (harness.h) */
    uint64_t compiles, loads;     /* its JIT's kernels compiled, loaded from a cache */
    uint64_t jit_ms;              /* their milliseconds */
    uint64_t classes;             /* specialization classes met (sweep, by class) */
    uint64_t held;                /* inputs not sent: their class not admitted (libFuzzer) */
    uint64_t checked;             /* inputs whose verdict was in ("stat::gmfuzz_target_checked") */
    uint64_t answered;            /* calls the target answered (returned or raised) */
    uint64_t torch_cases, torch_calls; /* three-way: the torch reference's cases, messages */
    uint64_t torch_ms, job_ms;    /* its milliseconds, and the job's since it opened */
    uint64_t torch_start_ms;      /* its worker's start-up (within job_ms) */
    uint64_t counted_runs;        /* runs that said their checked counts: 0, and a
                                   * campaign's jobs never did (an old or foreign target) */
} campaign_target_tally;

/* sum += x, field by field. */
void campaign_target_tally_add(campaign_target_tally *sum, const campaign_target_tally *x);

typedef struct {
    bool have;             /* anything parsed yet */
    bool final;            /* the run's final count was seen: execs is exact */
    uint64_t execs;        /* executions so far in this run */
    uint64_t exec_per_sec; /* the engine's own rate */
    uint64_t coverage;     /* libFuzzer cov (PCs/edges), AFL++ edges_found */
    uint64_t corpus;       /* units in this engine's corpus */
    campaign_target_tally target; /* the target's counts in this run */
    bool target_started;   /* the run's target finished its start-up ("stat::gmfuzz_target_
                            * started_ms"): a wait from then on is a wait on a call */
} campaign_stats;

/* Folds one line of libFuzzer output into `s`; false when the line is
 * not a status or final-stats line (s unchanged). */
bool campaign_stats_libfuzzer_line(const char *line, campaign_stats *s);

/* Replaces `s` by the contents of an AFL++ fuzzer_stats file; false when
 * the text holds none of the keys. */
bool campaign_stats_afl(const char *text, campaign_stats *s);

/* Replaces `s` by the last row of an AFL++ plot_data file (written every
 * few seconds, where fuzzer_stats may lag a minute); the columns are found
 * by the names in its "# relative_time, ..." header. False when the text
 * has no such header or no row. */
bool campaign_stats_afl_plot(const char *text, campaign_stats *s);

#endif
