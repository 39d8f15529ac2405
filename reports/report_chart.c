#include "report_chart.h"

#include <stdint.h>
#include <stdlib.h>

#include "report_svg.h"
#include "report_time.h"

#define REPORT_CHART_BLUE "#1a73e8"
#define REPORT_CHART_GREEN "#188038"
#define REPORT_CHART_ORANGE "#e37400"
#define REPORT_CHART_RED "#d93025"
#define REPORT_CHART_PURPLE "#8430ce"

static const char report_chart_no_samples[] =
    "no samples: this folder has no stats.jsonl (not a campaign, or an older one)";

static report_svg_frame report_chart_frame(const char *title) {
    report_svg_frame f = {title, REPORT_CHART_WIDTH, REPORT_CHART_HEIGHT};
    return f;
}

/* Which counter of a sample a series shows. */
typedef enum {
    REPORT_CHART_RATE,
    REPORT_CHART_COVERAGE,
    REPORT_CHART_CORPUS,
    REPORT_CHART_SIGNATURES,
    REPORT_CHART_FAILURES,
} report_chart_counter;

static double report_chart_value(const repro_rundir_sample *s, report_chart_counter c) {
    switch (c) {
    case REPORT_CHART_RATE: return (double)s->exec_per_sec;
    case REPORT_CHART_COVERAGE: return (double)s->coverage;
    case REPORT_CHART_CORPUS: return (double)s->corpus;
    case REPORT_CHART_SIGNATURES: return (double)s->signatures;
    default: return (double)s->failures;
    }
}

/* Arrays for one series from the samples: x (shared, owned by the caller)
 * and y (new). NULL when memory runs out. */
static double *report_chart_column(const repro_rundir *r, report_chart_counter c) {
    double *y = malloc((r->n_samples + 1) * sizeof *y);
    for (size_t i = 0; y != NULL && i < r->n_samples; i++) {
        y[i] = report_chart_value(&r->samples[i], c);
    }
    return y;
}

static double *report_chart_times(const repro_rundir *r) {
    double *x = malloc((r->n_samples + 1) * sizeof *x);
    for (size_t i = 0; x != NULL && i < r->n_samples; i++) {
        x[i] = r->samples[i].t > 0.0 ? r->samples[i].t : 0.0;
    }
    return x;
}

typedef struct {
    const char *name;
    const char *color;
    report_chart_counter counter;
    bool step;
} report_chart_line;

/* A chart of up to three counters of the samples. */
static void report_chart_samples(report_text *out, const repro_rundir *r, const char *title,
                                 const report_chart_line *lines, size_t n) {
    report_svg_frame f = report_chart_frame(title);
    if (r->n_samples == 0) {
        report_svg_empty(out, &f, report_chart_no_samples);
        return;
    }
    report_svg_series series[3];
    double *x = report_chart_times(r);
    bool ok = x != NULL && n <= 3;
    for (size_t k = 0; k < n && k < 3; k++) {
        double *y = report_chart_column(r, lines[k].counter);
        series[k] = (report_svg_series){lines[k].name, lines[k].color, x, y, r->n_samples,
                                        lines[k].step};
        ok = ok && y != NULL;
    }
    if (ok) {
        report_svg_lines(out, &f, series, n);
    } else {
        out->failed = true;
    }
    for (size_t k = 0; k < n && k < 3; k++) {
        free((double *)series[k].y);
    }
    free(x);
}

void report_chart_rate(report_text *out, const repro_rundir *r) {
    const report_chart_line lines[] = {
        {"exec/s", REPORT_CHART_BLUE, REPORT_CHART_RATE, false}};
    report_chart_samples(out, r, "Executions per second", lines, 1);
}

void report_chart_coverage(report_text *out, const repro_rundir *r) {
    const report_chart_line lines[] = {
        {"coverage", REPORT_CHART_GREEN, REPORT_CHART_COVERAGE, false},
        {"corpus units", REPORT_CHART_PURPLE, REPORT_CHART_CORPUS, false}};
    report_chart_samples(out, r, "Coverage and corpus", lines, 2);
}

static int report_chart_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Without samples: the signatures' first-seen times, from the campaign's
 * start (or the first of them), as a count that steps up. */
static void report_chart_first_seen(report_text *out, const repro_rundir *r, report_svg_frame *f) {
    double *x = malloc((r->n_sigs + 1) * sizeof *x), *y = malloc((r->n_sigs + 1) * sizeof *y);
    size_t n = 0;
    for (size_t i = 0; x != NULL && i < r->n_sigs; i++) {
        n += report_time_parse(r->sigs[i].first_seen, &x[n]) ? 1 : 0;
    }
    double origin = 0.0;
    if (n > 0 && y != NULL) {
        qsort(x, n, sizeof *x, report_chart_cmp_double);
        if (!(r->campaign.present && report_time_parse(r->campaign.started_at, &origin))) {
            origin = x[0];
        }
        for (size_t i = 0; i < n; i++) {
            x[i] = x[i] > origin ? x[i] - origin : 0.0;
            y[i] = (double)(i + 1);
        }
        report_svg_series s = {"signatures (first seen)", REPORT_CHART_RED, x, y, n, true};
        report_svg_lines(out, f, &s, 1);
    } else if (x == NULL || y == NULL) {
        out->failed = true;
    } else {
        report_svg_empty(out, f, r->n_sigs > 0 ? "no first-seen times recorded"
                                               : "no signatures: nothing to draw");
    }
    free(x);
    free(y);
}

void report_chart_signatures(report_text *out, const repro_rundir *r) {
    if (r->n_samples == 0) {
        report_svg_frame f = report_chart_frame("Signatures over time");
        report_chart_first_seen(out, r, &f);
        return;
    }
    /* Signatures drawn last, on top: with a strict baseline every input
     * is a new signature and the two lines are one. */
    const report_chart_line lines[] = {
        {"failing inputs", REPORT_CHART_ORANGE, REPORT_CHART_FAILURES, true},
        {"signatures", REPORT_CHART_RED, REPORT_CHART_SIGNATURES, true}};
    report_chart_samples(out, r, "Signatures and failing inputs over time", lines, 2);
}

void report_chart_classes(report_text *out, const repro_rundir *r) {
    report_svg_bar bars[TRIAGE_CLASS_COUNT];
    size_t n = 0;
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (r->class_inputs[k] > 0) {
            bars[n++] = (report_svg_bar){triage_class_name((triage_class)k), (double)r->class_inputs[k],
                                         k == TRIAGE_CLASS_UNCLASSIFIED ? REPORT_CHART_RED
                                                                    : REPORT_CHART_BLUE};
        }
    }
    report_svg_frame f = report_chart_frame("Failing inputs by class");
    if (n == 0) {
        f.height = 90;
        report_svg_empty(out, &f, "no failing inputs");
        return;
    }
    report_svg_bars(out, &f, bars, n);
}
