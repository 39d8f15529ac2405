/* report_json: summary.json ("gmfuzz-summary-v1", docs/FORMATS.md):
 * everything the run folder holds (the campaign, its samples, every
 * signature with its counts, reproducer and baseline decision), as one
 * stable document for scripts and dashboards. Paths in it are relative to
 * the folder summary.json is written to. */
#ifndef REPORT_JSON_H
#define REPORT_JSON_H

#include <stdbool.h>

#include "report_text.h"
#include "report_view.h"

/* Appends the document to `out` (out->failed when memory ran out). */
void report_json_build(const report_view *v, const char *out_dir, report_text *out);

#endif
