/* report_sources: the per-runner table of a merged folder's reports
 * (`gmfuzz merge`): one line per source campaign with its host, start,
 * running time, executions, signatures, buckets and exit code, from the
 * "sources" of its campaign.json. Nothing for a folder that is not a
 * merge. */
#ifndef REPORT_SOURCES_H
#define REPORT_SOURCES_H

#include "report_text.h"
#include "report_view.h"

#include <cjson/cJSON.h>

void report_sources_md(const report_view *v, report_text *out);
/* summary.json's campaign.sources: the list as read; NULL when out of memory. */
cJSON *report_sources_json(const repro_rundir_campaign *c);
void report_sources_html(const report_view *v, report_text *out);

#endif
