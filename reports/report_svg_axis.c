#include "report_svg_axis.h"

#include <math.h>
#include <stdio.h>


/* Intervals a readable axis has: fewer is bare, more is crowded. */
#define REPORT_SVG_AXIS_MIN_STEPS 3

/* Tick step and top, in displayed units, for data in [0, top]. A value
 * axis (a count) ends on a tick above the data: of the whole steps
 * (1, 2, 5 x 10^k) giving 3 to `max_steps` intervals, the one with the
 * lowest top. A time axis ends at the data's end, with the finest step
 * that fits. */
static void report_svg_axis_fit(double top, int max_steps, report_svg_axis *a) {
    static const double mantissa[] = {1.0, 2.0, 5.0};
    if (!(top > 0.0) || !isfinite(top)) {
        top = 1.0;
    }
    double best_step = 0.0, best_top = 0.0;
    int exponent = (int)floor(log10(top));
    for (int e = exponent - 2; e <= exponent + 1; e++) {
        for (size_t m = 0; m < sizeof mantissa / sizeof mantissa[0]; m++) {
            double step = mantissa[m] * pow(10.0, e);
            double n = a->time ? floor(top / step + 1e-9) : ceil(top / step - 1e-9);
            double end = a->time ? top : n * step;
            /* Values are counts: no tick between two integers, and a count
             * of 1 or 2 gets its own ticks. */
            bool fits = n <= max_steps &&
                        (a->time ? n >= REPORT_SVG_AXIS_MIN_STEPS
                                 : step >= 1.0 && (n >= REPORT_SVG_AXIS_MIN_STEPS || step == 1.0));
            if (fits && (best_step == 0.0 || end < best_top ||
                         (a->time && step < best_step))) {
                best_step = step;
                best_top = end;
            }
        }
    }
    if (best_step == 0.0) { /* no fit: one step over the whole axis */
        best_step = top;
        best_top = top;
    }
    a->step = best_step * a->unit;
    a->max = best_top * a->unit;
}

void report_svg_axis_values(double data_max, int max_steps, report_svg_axis *a) {
    a->unit = 1.0;
    a->suffix = "";
    a->time = false;
    report_svg_axis_fit(data_max, max_steps, a);
}

void report_svg_axis_time(double data_max, int max_steps, report_svg_axis *a) {
    a->time = true;
    if (data_max <= 120.0) {
        a->unit = 1.0;
        a->suffix = " s";
    } else if (data_max <= 2.0 * 3600.0) {
        a->unit = 60.0;
        a->suffix = " min";
    } else {
        a->unit = 3600.0;
        a->suffix = " h";
    }
    report_svg_axis_fit(data_max / a->unit, max_steps, a);
    if (data_max > 0.0 && isfinite(data_max)) {
        a->max = data_max; /* exactly, not through the unit */
    }
}

void report_svg_axis_label(const report_svg_axis *a, double v, char *out, size_t size) {
    static const char *const big[] = {"k", "M", "G", "T"};
    double shown = v / a->unit;
    if (a->time || shown < 1000.0) {
        /* %g drops the trailing zeros a step like 0.5 or 2.5 would leave. */
        snprintf(out, size, "%g%s", shown, a->suffix);
        return;
    }
    size_t k = 0;
    shown /= 1000.0;
    while (shown >= 1000.0 && k + 1 < sizeof big / sizeof big[0]) {
        shown /= 1000.0;
        k++;
    }
    /* Tick values are round: 1k, 2.5k, 50k, 1.2M. */
    snprintf(out, size, "%.3g%s", shown, big[k]);
}
