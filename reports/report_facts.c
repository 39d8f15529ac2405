#include "report_facts.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_format.h"

typedef struct {
    report_fact *items;
    size_t n;
} report_facts_sink;

/* The next fact, labelled; its value is written by the caller. */
static char *report_facts_add(report_facts_sink *sink, const char *label) {
    report_fact *f = &sink->items[sink->n++];
    f->label = label;
    f->value[0] = '\0';
    return f->value;
}

static const char *report_facts_exit_meaning(int code) {
    switch (code) {
    case -1: return "still running, or killed before it could finish";
    case 0: return "nothing new";
    case 1: return "new signatures found";
    case 2: return "usage error";
    default: return "the campaign could not run properly";
    }
}

static void report_facts_setup(const repro_rundir_campaign *c, report_facts_sink *sink) {
    snprintf(report_facts_add(sink, "engine"), REPORT_FACT_VALUE_MAX,
             "%s, %d job%s, %s backend, %s comparison%s", c->engine, c->jobs,
             c->jobs == 1 ? "" : "s", c->backend, c->compare,
             c->strict_baseline ? ", strict baseline (nothing known)" : "");
    snprintf(report_facts_add(sink, "baseline"), REPORT_FACT_VALUE_MAX, "%s",
             c->strict_baseline ? "none (--strict-baseline)"
             : c->baseline != NULL ? c->baseline
                                   : "not recorded");
    char ran[32], budget[32];
    report_format_duration(c->elapsed_s, ran, sizeof ran);
    report_format_duration(c->budget_s, budget, sizeof budget);
    snprintf(report_facts_add(sink, "time"), REPORT_FACT_VALUE_MAX,
             "ran %s of a %s budget, started %s%s%s%s", ran, budget,
             c->started_at[0] ? c->started_at : "?",
             c->ended_at[0] ? ", ended " : ", never finished (up to its last sample)",
             c->ended_at, c->interrupted ? " (interrupted)" : "");
}

static void report_facts_work(const repro_rundir_campaign *c, report_facts_sink *sink) {
    char execs[16], rate[16];
    report_format_count(c->execs, execs, sizeof execs);
    report_format_count(report_format_rate(c->execs, c->elapsed_s), rate, sizeof rate);
    char *value = report_facts_add(sink, "executions");
    if (c->execs < 1000) {
        snprintf(value, REPORT_FACT_VALUE_MAX, "%" PRIu64 ", %s exec/s on average", c->execs,
                 rate);
    } else {
        snprintf(value, REPORT_FACT_VALUE_MAX, "%" PRIu64 " (%s), %s exec/s on average",
                 c->execs, execs, rate);
    }
    snprintf(report_facts_add(sink, "coverage"), REPORT_FACT_VALUE_MAX,
             "%" PRIu64 " (the engine's counter), corpus %" PRIu64 " units, %u restart%s",
             c->coverage, c->corpus, c->restarts, c->restarts == 1 ? "" : "s");
    if (c->target_restarts_crashed + c->target_restarts_hung > 0) {
        snprintf(report_facts_add(sink, "target restarts"), REPORT_FACT_VALUE_MAX,
                 "%" PRIu64 " after a crash, %" PRIu64 " after a hang",
                 c->target_restarts_crashed, c->target_restarts_hung);
    }
    if (c->target_unreliable_crashed + c->target_unreliable_hung > 0) {
        snprintf(report_facts_add(sink, "unreliable"), REPORT_FACT_VALUE_MAX,
                 "%" PRIu64 " crash%s and %" PRIu64 " hang%s did not happen again on a fresh "
                 "worker: not findings (kept in unreliable/)",
                 c->target_unreliable_crashed, c->target_unreliable_crashed == 1 ? "" : "es",
                 c->target_unreliable_hung, c->target_unreliable_hung == 1 ? "" : "s");
    }
    if (c->target_compiles + c->target_loads > 0) {
        snprintf(report_facts_add(sink, "target JIT"), REPORT_FACT_VALUE_MAX,
                 "%" PRIu64 " kernels compiled, %" PRIu64 " loaded from its cache, %.1f s",
                 c->target_compiles, c->target_loads, (double)c->target_jit_ms / 1000.0);
    }
    if (c->target_classes + c->target_held > 0) {
        snprintf(report_facts_add(sink, "classes"), REPORT_FACT_VALUE_MAX,
                 "%" PRIu64 " specialization classes met; %" PRIu64
                 " inputs checked on the C side only (class not admitted)",
                 c->target_classes, c->target_held);
    }
    snprintf(report_facts_add(sink, "exit"), REPORT_FACT_VALUE_MAX, "%d: %s", c->exit_code,
             report_facts_exit_meaning(c->exit_code));
    if (c->problem != NULL) {
        snprintf(report_facts_add(sink, "problem"), REPORT_FACT_VALUE_MAX, "%s", c->problem);
    }
    if (c->tool_version != NULL) {
        snprintf(report_facts_add(sink, "tool"), REPORT_FACT_VALUE_MAX, "%s", c->tool_version);
    }
    if (c->host[0] != '\0') {
        snprintf(report_facts_add(sink, "host"), REPORT_FACT_VALUE_MAX, "%s", c->host);
    }
}

/* The campaign's totals; one that never finished (killed, or still
 * running) has none, so its last sample stands in for them. */
static repro_rundir_campaign report_facts_campaign(const repro_rundir *r) {
    repro_rundir_campaign c = r->campaign;
    if (c.exit_code == -1 && r->n_samples > 0) {
        const repro_rundir_sample *last = &r->samples[r->n_samples - 1];
        c.elapsed_s = last->t;
        c.execs = last->execs;
        c.coverage = last->coverage;
        c.corpus = last->corpus;
    }
    return c;
}

size_t report_facts_list(const report_view *v, report_fact out[REPORT_FACTS_MAX]) {
    const repro_rundir *r = v->run;
    report_facts_sink sink = {out, 0};
    snprintf(report_facts_add(&sink, "folder"), REPORT_FACT_VALUE_MAX, "%s%s",
             r->path != NULL ? r->path : "?",
             r->is_campaign ? "" : " (a folder of reproducers, not a campaign)");
    if (r->campaign.present) {
        repro_rundir_campaign c = report_facts_campaign(r);
        report_facts_setup(&c, &sink);
        report_facts_work(&c, &sink);
    }
    char counts[256];
    report_facts_counts(v, counts, sizeof counts);
    snprintf(report_facts_add(&sink, "findings"), REPORT_FACT_VALUE_MAX, "%s", counts);
    if (r->unreadable > 0) {
        snprintf(report_facts_add(&sink, "unreadable"), REPORT_FACT_VALUE_MAX,
                 "%zu file%s could not be read as reproducers; last: %s", r->unreadable,
                 r->unreadable == 1 ? "" : "s", r->last_problem);
    }
    return sink.n;
}

void report_facts_verdict(const report_view *v, char *out, size_t size) {
    size_t buckets = repro_rundir_new_buckets(v->run);
    if (v->n_new > 0 && buckets > 0) {
        snprintf(out, size, "%zu new signature%s in %zu new bucket%s", v->n_new,
                 v->n_new == 1 ? "" : "s", buckets, buckets == 1 ? "" : "s");
    } else if (v->n_new > 0) {
        snprintf(out, size, "%zu new signature%s", v->n_new, v->n_new == 1 ? "" : "s");
    } else if (v->run->campaign.present && v->run->campaign.problem != NULL) {
        /* A campaign with a problem checked less than it was asked to
         * (campaign_checked.h): no clean bill. */
        snprintf(out, size, "nothing new in what was checked (problem: %.300s)",
                 v->run->campaign.problem);
    } else if (v->run->n_sigs > 0) {
        snprintf(out, size, "nothing new");
    } else {
        snprintf(out, size, "nothing found");
    }
}

void report_facts_counts(const report_view *v, char *out, size_t size) {
    const repro_rundir *r = v->run;
    size_t known = r->n_sigs - v->n_new;
    snprintf(out, size, "%zu signature%s in %zu failing input%s; %zu new, %zu known", r->n_sigs,
             r->n_sigs == 1 ? "" : "s", r->inputs, r->inputs == 1 ? "" : "s", v->n_new, known);
    if (v->n_triaged > 0) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, " (%zu triaged as bug or wontfix)", v->n_triaged);
    }
}
