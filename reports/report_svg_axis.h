/* report_svg_axis: the scale of a chart axis: a tick step of 1, 2 or 5
 * times a power of ten, 3 to N intervals of it covering the data (a value
 * axis ends on a tick just above the data, a time axis where the data
 * ends), and tick labels in a unit a reader takes in at a glance (20.5k;
 * 30 s, 5 min, 2 h). */
#ifndef REPORT_SVG_AXIS_H
#define REPORT_SVG_AXIS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double unit;        /* data per displayed unit: 1, or 60 / 3600 for time */
    const char *suffix; /* "", " s", " min", " h" */
    double step;        /* tick spacing, in data units */
    double max;         /* the axis's end, >= the data */
    bool time;          /* labels are durations */
} report_svg_axis;

/* An axis of counts from 0 to a tick at or above `data_max`, whole steps,
 * at most `max_steps` intervals. */
void report_svg_axis_values(double data_max, int max_steps, report_svg_axis *a);
/* An axis of seconds from 0 to `data_max`, labelled in s, min or h by its
 * length, at most `max_steps` whole intervals. */
void report_svg_axis_time(double data_max, int max_steps, report_svg_axis *a);

/* The label of the tick at `v` (data units). */
void report_svg_axis_label(const report_svg_axis *a, double v, char *out, size_t size);

#endif
