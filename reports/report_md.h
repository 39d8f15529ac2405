/* report_md: report.md, one page for a terminal or a pull request: how the
 * run went, the new signatures with their smallest reproducer (a relative
 * link) and first difference, then the known ones with the baseline's
 * decision and explanation. Long lists are cut (summary.json has all). */
#ifndef REPORT_MD_H
#define REPORT_MD_H

#include "report_text.h"
#include "report_view.h"

/* Rows listed per table before the rest is left to summary.json. */
#define REPORT_MD_MAX_ROWS 100

void report_md_build(const report_view *v, report_text *out);

#endif
