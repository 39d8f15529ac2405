/* report_html: report.html, one self-contained page (inline CSS, inline
 * SVG charts, no script, no external URL) that opens offline, e.g. from a
 * CI artifact:
 *
 *   header      the verdict (new signatures in red, all known in green),
 *               any infrastructure problem, the run's facts
 *   charts      report_chart.h
 *   signatures  one row each, new ones first: decision, signature (and the
 *               baseline's explanation), inputs, first seen, a relative
 *               link to the reproducer, the first difference
 *
 * A folder with thousands of signatures keeps the page small (about 0.6 kB
 * a row): the table stops after REPORT_HTML_MAX_ROWS rows, new ones first,
 * and says where the rest are (summary.json lists every signature). */
#ifndef REPORT_HTML_H
#define REPORT_HTML_H

#include "report_text.h"
#include "report_view.h"

#define REPORT_HTML_MAX_ROWS 500

void report_html_build(const report_view *v, report_text *out);

#endif
