/* report_format: the small pieces of text every report shares, so that the
 * four documents say the same thing the same way. */
#ifndef REPORT_FORMAT_H
#define REPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "triage.h"
#include "gm_oracle.h"
#include "repro.h"

/* 999 -> "999", 20512 -> "20.5k", 4810733 -> "4.81M". */
void report_format_count(uint64_t v, char *out, size_t size);

/* 12.3 -> "12.3 s", 600.1 -> "10 min 0 s", 7300 -> "2 h 01 min". */
void report_format_duration(double seconds, char *out, size_t size);

/* Average executions per second; 0 when no time passed. */
uint64_t report_format_rate(uint64_t execs, double seconds);

/* "page_table[0][3]: reference -1, fused 0"; false (and "") when the
 * reproducer recorded no difference (a raise, an out-of-bounds access). */
bool report_format_difference(const gm_difference *d, char *out, size_t size);

/* The first difference of a signature's reproducer, or what stood in for
 * one: "the legacy path raised: nothing to compare", ... */
void report_format_finding(const repro_rundir_signature *s, char *out, size_t size);

/* "NEW" for what the baseline does not know, else its decision. */
const char *report_format_decision(const triage_baseline_entry *e);

#endif
