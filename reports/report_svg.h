/* report_svg: the charts of report.html, drawn as inline SVG (no script,
 * no external file, no namespace URL: HTML puts <svg> in the SVG namespace
 * on its own), so the page renders the same offline in any browser.
 *
 *   report_svg_lines  series over time (x in seconds): lines or steps
 *   report_svg_bars   labelled horizontal bars
 *   report_svg_empty  the chart's frame with a message (no data)
 *
 * Every text is escaped; colors are the caller's CSS colors. */
#ifndef REPORT_SVG_H
#define REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "report_text.h"

typedef struct {
    const char *title;  /* drawn at the top, also the <title> for readers */
    int width, height;  /* pixels; report_svg_bars computes its height */
} report_svg_frame;

typedef struct {
    const char *name;   /* legend entry */
    const char *color;
    const double *x;    /* seconds, ascending */
    const double *y;
    size_t n;
    bool step;          /* a count that jumps: drawn as steps */
} report_svg_series;

typedef struct {
    const char *label;
    double value;
    const char *color;
} report_svg_bar;

void report_svg_lines(report_text *out, const report_svg_frame *f, const report_svg_series *s,
                      size_t n_series);
void report_svg_bars(report_text *out, const report_svg_frame *f, const report_svg_bar *bars,
                     size_t n_bars);
void report_svg_empty(report_text *out, const report_svg_frame *f, const char *message);

#endif
