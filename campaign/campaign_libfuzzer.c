#include "campaign_libfuzzer.h"

#include <math.h>

/* Seconds for -max_total_time: what is left, rounded up, at least 1. */
static long campaign_libfuzzer_seconds(double time_left_s) {
    double up = ceil(time_left_s);
    return up < 1.0 ? 1 : (long)up;
}

void campaign_libfuzzer_argv(const campaign_setup *s, const campaign_worker *w,
                             double time_left_s, campaign_argv *argv) {
    const campaign_options *o = &s->opt;
    campaign_argv_add(argv, s->target);
    campaign_argv_add(argv, "-print_final_stats=1");
    campaign_argv_addf(argv, "-max_total_time=%ld", campaign_libfuzzer_seconds(time_left_s));
    campaign_argv_addf(argv, "-artifact_prefix=%s/", s->artifacts);
    if (o->runs != 0) {
        uint64_t done = campaign_worker_execs(w, 0.0, false);
        campaign_argv_addf(argv, "-runs=%llu",
                           (unsigned long long)(o->runs > done ? o->runs - done : 1));
    }
    if (o->seed != 0) {
        /* Job k's first run has seed + k; every restart a seed of its own. */
        uint64_t seed = o->seed + (uint64_t)w->index + (uint64_t)o->jobs * w->starts;
        campaign_argv_addf(argv, "-seed=%llu", (unsigned long long)seed);
    }
    if (s->dict[0] != '\0') {
        campaign_argv_addf(argv, "-dict=%s", s->dict);
    }
    campaign_argv_add(argv, s->corpus);
}

static void campaign_libfuzzer_line(const char *line, void *ctx) {
    campaign_worker *w = ctx;
    campaign_stats_libfuzzer_line(line, &w->stats);
}

void campaign_libfuzzer_refresh(campaign_worker *w, double now_s) {
    uint64_t before = w->stats.execs, answered = w->stats.target.answered;
    bool started = w->stats.target_started;
    campaign_log_follow(&w->log, w->log_path, campaign_libfuzzer_line, w);
    if (w->stats.execs != before) {
        w->stats_seen_s = now_s;
    }
    if (w->stats.target_started && !started) {
        w->target_started_s = now_s;
        w->answer_seen_s = now_s;
    }
    if (w->stats.target.answered != answered) {
        w->answer_seen_s = now_s;
    }
}

bool campaign_libfuzzer_restarts(const campaign_setup *s, const campaign_worker *w) {
    /* Exit 0: libFuzzer reached -runs or -max_total_time. Anything else
     * (the target aborted on a failure, a crash, a timeout) runs again. */
    if (w->proc.exited && w->proc.code == 0) {
        return false;
    }
    return s->opt.runs == 0 || campaign_worker_execs(w, 0.0, false) < s->opt.runs;
}

void campaign_libfuzzer_sweep_argv(const campaign_setup *s, const campaign_worker *w,
                                   double time_left_s, campaign_argv *argv) {
    const campaign_options *o = &s->opt;
    campaign_argv_add(argv, s->target); /* the gmfuzz binary itself */
    campaign_argv_add(argv, "sweep-job");
    campaign_argv_addf(argv, "-max_total_time=%ld", campaign_libfuzzer_seconds(time_left_s));
    campaign_argv_addf(argv, "-batch=%llu", (unsigned long long)o->batch);
    campaign_argv_addf(argv, "-shape_run=%llu", (unsigned long long)o->shape_run);
    if (o->runs != 0) {
        uint64_t done = campaign_worker_execs(w, 0.0, false);
        campaign_argv_addf(argv, "-runs=%llu",
                           (unsigned long long)(o->runs > done ? o->runs - done : 1));
    }
    /* Job k of a seeded sweep draws from seed + k; each restart from a new
     * stream (the cases already drawn are not drawn again). */
    uint64_t seed = (o->seed != 0 ? o->seed : 1) + (uint64_t)w->index +
                    (uint64_t)o->jobs * w->starts;
    campaign_argv_addf(argv, "-seed=%llu", (unsigned long long)seed);
}
