/* report_buckets: the first table of report.md and report.html, one row per
 * bucket (a root cause, triage_bucket.h), the new ones first: its status, the
 * signatures in it (the finer key), its failing inputs and its smallest
 * reproducer. One bug is one row, however many signatures it shows as. */
#ifndef REPORT_BUCKETS_H
#define REPORT_BUCKETS_H

#include "report_text.h"
#include "report_view.h"

/* Signatures named in one row; the rest are counted ("and 12 more"). */
#define REPORT_BUCKETS_SIGS_SHOWN 4
/* Rows of the table; the rest are counted (summary.json lists them all). */
#define REPORT_BUCKETS_MAX_ROWS 100

void report_buckets_md(const report_view *v, report_text *out);
void report_buckets_html(const report_view *v, report_text *out);

#endif
