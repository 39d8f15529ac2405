/* report_facts: how a run went, as label/value lines and one verdict
 * sentence, computed once so that report.md and report.html state the same
 * facts in the same words. */
#ifndef REPORT_FACTS_H
#define REPORT_FACTS_H

#include <stddef.h>

#include "report_view.h"

#define REPORT_FACTS_MAX 16
#define REPORT_FACT_VALUE_MAX 1024

typedef struct {
    const char *label;
    char value[REPORT_FACT_VALUE_MAX];
} report_fact;

/* The facts of the run (the campaign's, or the folder's when it is a plain
 * folder of reproducers); returns how many were written. */
size_t report_facts_list(const report_view *v, report_fact out[REPORT_FACTS_MAX]);

/* "3 new signatures", "nothing new", "nothing found" (no failing input);
 * "nothing new in what was checked (problem: ...)" for a campaign that had
 * a problem (it may have checked nothing at all). */
void report_facts_verdict(const report_view *v, char *out, size_t size);

/* "12 signatures in 40 failing inputs; 3 new, 9 known (2 triaged as bug
 * or wontfix)". */
void report_facts_counts(const report_view *v, char *out, size_t size);

#endif
