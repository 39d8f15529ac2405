#include "campaign_worker.h"

#include "campaign_engine.h"

#include <stdio.h>
#include <string.h>

void campaign_worker_init(campaign_worker *w, const campaign_setup *s, int index) {
    memset(w, 0, sizeof *w);
    w->index = index;
    const campaign_engine_traits *t = campaign_engine_of(s->opt.engine);
    if (index == 0 && t->first_name != NULL) {
        snprintf(w->name, sizeof w->name, "%s", t->first_name);
    } else {
        snprintf(w->name, sizeof w->name, "%s%d", t->name_prefix, index);
    }
    /* campaign_setup keeps DIR short enough for every name under it. */
    if (snprintf(w->log_path, sizeof w->log_path, "%s/%s.log", s->logs, w->name) >=
        (int)sizeof w->log_path) {
        snprintf(w->log_path, sizeof w->log_path, "/dev/null");
    }
    campaign_log_init(&w->log);
}

double campaign_worker_rate(const campaign_worker *w) {
    if (!w->proc.running) {
        return 0.0;
    }
    if (w->stats.exec_per_sec > 0) {
        return (double)w->stats.exec_per_sec;
    }
    /* Too few executions say nothing (AFL++'s calibration before its first
     * stats update, a minute in). */
    double span = w->stats_seen_s - w->started_s;
    return w->stats.execs >= 100 && span >= 1.0 ? (double)w->stats.execs / span : 0.0;
}

uint64_t campaign_worker_execs(const campaign_worker *w, double now_s, bool estimate) {
    uint64_t current = w->stats.execs;
    if (estimate && w->proc.running && !w->stats.final && now_s > w->stats_seen_s) {
        current += (uint64_t)(campaign_worker_rate(w) * (now_s - w->stats_seen_s));
    }
    return w->execs_before + current;
}

static uint64_t campaign_worker_next_pow2(uint64_t n) {
    uint64_t p = 1;
    while (p <= n && p < (UINT64_C(1) << 63)) {
        p <<= 1;
    }
    return p;
}

double campaign_worker_exec_idle(const campaign_worker *w, bool pow2_reports, double now_s) {
    double since = w->stats_seen_s > w->started_s ? w->stats_seen_s : w->started_s;
    double allowed = 0.0;
    double rate = campaign_worker_rate(w);
    if (rate <= 0.0 && w->stats.execs > 0 && since > w->started_s) {
        /* Under 1 exec/s libFuzzer prints "exec/s: 0": the run's average
         * is the rate, however few executions it counts. */
        rate = (double)w->stats.execs / (since - w->started_s);
    }
    if (pow2_reports && rate > 0.0) {
        allowed = 2.0 * (double)(campaign_worker_next_pow2(w->stats.execs) - w->stats.execs) / rate;
    }
    double idle = now_s - since - allowed;
    return idle > 0.0 ? idle : 0.0;
}

void campaign_worker_close_run(campaign_worker *w) {
    w->execs_before += w->stats.execs;
    memset(&w->stats, 0, sizeof w->stats);
    /* The log is appended to across runs: its reader keeps its place. */
}
