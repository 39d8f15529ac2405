#include "report_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_escape.h"
#include "report_svg_axis.h"

/* The plot area inside a line chart's frame. */
enum { REPORT_SVG_LEFT = 56, REPORT_SVG_RIGHT = 16, REPORT_SVG_TOP = 30, REPORT_SVG_BOTTOM = 28 };
/* Bar charts: room for the labels, the rows. */
enum { REPORT_SVG_LABEL_W = 190, REPORT_SVG_ROW_H = 22, REPORT_SVG_VALUE_W = 60 };

#define REPORT_SVG_AXIS_COLOR "#9aa0a6"
#define REPORT_SVG_GRID_COLOR "#e3e6ea"
#define REPORT_SVG_TEXT_COLOR "#3c4043"

typedef struct {
    double x0, y0, w, h; /* plot area, pixels */
    report_svg_axis xa, ya;
} report_svg_plot;

static void report_svg_open(report_text *out, const report_svg_frame *f, int height) {
    report_text_printf(out, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                            "role=\"img\" aria-label=\"", f->width, height, f->width, height);
    report_escape_xml_attr(out, f->title);
    report_text_put(out, "\"><title>");
    report_escape_xml(out, f->title);
    report_text_printf(out, "</title><text x=\"8\" y=\"18\" font-size=\"13\" font-weight=\"600\" "
                            "fill=\"%s\">", REPORT_SVG_TEXT_COLOR);
    report_escape_xml(out, f->title);
    report_text_put(out, "</text>\n");
}

static void report_svg_text(report_text *out, double x, double y, const char *anchor,
                            const char *s) {
    report_text_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\" "
                            "fill=\"%s\">", x, y, anchor, REPORT_SVG_TEXT_COLOR);
    report_escape_xml(out, s);
    report_text_put(out, "</text>\n");
}

void report_svg_empty(report_text *out, const report_svg_frame *f, const char *message) {
    report_svg_open(out, f, f->height);
    report_text_printf(out, "<rect x=\"0.5\" y=\"28.5\" width=\"%d\" height=\"%d\" fill=\"none\" "
                            "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
                       f->width - 1, f->height - 30, REPORT_SVG_GRID_COLOR);
    report_svg_text(out, f->width / 2.0, 28.0 + (f->height - 28) / 2.0, "middle", message);
    report_text_put(out, "</svg>\n");
}

static double report_svg_px_x(const report_svg_plot *p, double x) {
    return p->x0 + (p->xa.max > 0.0 ? x / p->xa.max : 0.0) * p->w;
}

static double report_svg_px_y(const report_svg_plot *p, double y) {
    return p->y0 + p->h - (p->ya.max > 0.0 ? y / p->ya.max : 0.0) * p->h;
}

/* Ticks of an axis: 0, step, 2 step, ... up to its end (a bounded count,
 * whatever the data). */
static int report_svg_ticks(const report_svg_axis *a) {
    double n = a->step > 0.0 ? floor(a->max / a->step + 1e-9) : 0.0;
    return n >= 0.0 && n <= 100.0 ? (int)n : 0;
}

/* Grid lines and tick labels of both axes. */
static void report_svg_axes(report_text *out, const report_svg_plot *p) {
    char label[32];
    for (int k = 0; k <= report_svg_ticks(&p->ya); k++) {
        double v = k * p->ya.step, y = report_svg_px_y(p, v);
        report_text_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                                "stroke=\"%s\"/>\n",
                           p->x0, y, p->x0 + p->w, y, k == 0 ? REPORT_SVG_AXIS_COLOR
                                                             : REPORT_SVG_GRID_COLOR);
        report_svg_axis_label(&p->ya, v, label, sizeof label);
        report_svg_text(out, p->x0 - 6, y + 4, "end", label);
    }
    for (int k = 0; k <= report_svg_ticks(&p->xa); k++) {
        double v = k * p->xa.step, x = report_svg_px_x(p, v);
        report_text_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                                "stroke=\"%s\"/>\n",
                           x, p->y0 + p->h, x, p->y0 + p->h + 4, REPORT_SVG_AXIS_COLOR);
        report_svg_axis_label(&p->xa, v, label, sizeof label);
        report_svg_text(out, x, p->y0 + p->h + 17, "middle", label);
    }
}

/* The polyline of one series; points closer than half a pixel to the last
 * one drawn are skipped, so a night of samples stays a small path. */
static void report_svg_path(report_text *out, const report_svg_plot *p,
                            const report_svg_series *s) {
    report_text_printf(out, "<polyline fill=\"none\" stroke-width=\"2\" stroke-linejoin=\"round\" "
                            "stroke=\"%s\" points=\"", s->color);
    double last_x = -1e9, prev_y = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        double x = report_svg_px_x(p, s->x[i]), y = report_svg_px_y(p, s->y[i]);
        if (x - last_x < 0.5 && i + 1 < s->n && !(s->step && y != prev_y)) {
            continue;
        }
        if (s->step && i > 0) {
            report_text_printf(out, "%.1f,%.1f ", x, prev_y);
        }
        report_text_printf(out, "%.1f,%.1f ", x, y);
        last_x = x;
        prev_y = y;
    }
    report_text_put(out, "\"/>\n");
}

/* About this many pixels per character at the legend's font size; an
 * overestimate, so that entries never overlap. */
#define REPORT_SVG_CHAR_W 6.6

/* Legend entries side by side, ending at the right edge: a color box, then
 * the series' name. */
static void report_svg_legend(report_text *out, const report_svg_frame *f,
                              const report_svg_series *s, size_t n) {
    double width = 0.0;
    for (size_t i = 0; i < n; i++) {
        width += 14.0 + REPORT_SVG_CHAR_W * (double)strlen(s[i].name) + 14.0;
    }
    double x = f->width - REPORT_SVG_RIGHT - width + 14.0;
    for (size_t i = 0; i < n; i++) {
        report_text_printf(out, "<rect x=\"%.1f\" y=\"10\" width=\"10\" height=\"10\" "
                                "fill=\"%s\"/>\n", x, s[i].color);
        report_svg_text(out, x + 14.0, 19, "start", s[i].name);
        x += 14.0 + REPORT_SVG_CHAR_W * (double)strlen(s[i].name) + 14.0;
    }
}

static void report_svg_fit(report_svg_plot *p, const report_svg_frame *f,
                           const report_svg_series *s, size_t n_series) {
    double max_x = 0.0, max_y = 0.0;
    for (size_t k = 0; k < n_series; k++) {
        for (size_t i = 0; i < s[k].n; i++) {
            max_x = s[k].x[i] > max_x ? s[k].x[i] : max_x;
            max_y = s[k].y[i] > max_y ? s[k].y[i] : max_y;
        }
    }
    p->x0 = REPORT_SVG_LEFT;
    p->y0 = REPORT_SVG_TOP;
    p->w = f->width - REPORT_SVG_LEFT - REPORT_SVG_RIGHT;
    p->h = f->height - REPORT_SVG_TOP - REPORT_SVG_BOTTOM;
    report_svg_axis_time(max_x, 7, &p->xa);
    report_svg_axis_values(max_y, 6, &p->ya);
}

void report_svg_lines(report_text *out, const report_svg_frame *f, const report_svg_series *s,
                      size_t n_series) {
    report_svg_plot p;
    report_svg_fit(&p, f, s, n_series);
    report_svg_open(out, f, f->height);
    report_svg_axes(out, &p);
    for (size_t k = 0; k < n_series; k++) {
        report_svg_path(out, &p, &s[k]);
    }
    if (n_series > 1) {
        report_svg_legend(out, f, s, n_series);
    }
    report_text_put(out, "</svg>\n");
}

void report_svg_bars(report_text *out, const report_svg_frame *f, const report_svg_bar *bars,
                     size_t n_bars) {
    int height = REPORT_SVG_TOP + (int)n_bars * REPORT_SVG_ROW_H + 8;
    double max = 0.0;
    for (size_t i = 0; i < n_bars; i++) {
        max = bars[i].value > max ? bars[i].value : max;
    }
    double room = f->width - REPORT_SVG_LABEL_W - REPORT_SVG_VALUE_W;
    report_svg_open(out, f, height);
    char value[32];
    for (size_t i = 0; i < n_bars; i++) {
        double y = REPORT_SVG_TOP + (double)i * REPORT_SVG_ROW_H;
        double w = max > 0.0 ? fmax(1.0, bars[i].value / max * room) : 1.0;
        report_svg_text(out, REPORT_SVG_LABEL_W - 8, y + 15, "end", bars[i].label);
        report_text_printf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"16\" "
                                "fill=\"%s\"/>\n",
                           REPORT_SVG_LABEL_W, y + 3, w, bars[i].color);
        snprintf(value, sizeof value, "%.0f", bars[i].value);
        report_svg_text(out, REPORT_SVG_LABEL_W + w + 6, y + 15, "start", value);
    }
    report_text_put(out, "</svg>\n");
}
