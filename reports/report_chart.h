/* report_chart: the charts report.html shows, built from a run folder:
 *
 *   execution rate over time        stats.jsonl: exec_per_sec
 *   coverage and corpus over time   stats.jsonl: coverage, corpus
 *   signatures over time            stats.jsonl: signatures, failures; a
 *                                   folder without samples: the first-seen
 *                                   times of its signatures
 *   failing inputs by class         the class counts of the folder
 *
 * A chart without data says so in its frame. */
#ifndef REPORT_CHART_H
#define REPORT_CHART_H

#include "repro.h"
#include "report_text.h"

#define REPORT_CHART_WIDTH 600
#define REPORT_CHART_HEIGHT 230

void report_chart_rate(report_text *out, const repro_rundir *r);
void report_chart_coverage(report_text *out, const repro_rundir *r);
void report_chart_signatures(report_text *out, const repro_rundir *r);
void report_chart_classes(report_text *out, const repro_rundir *r);

#endif
