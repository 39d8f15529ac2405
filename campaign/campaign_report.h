/* campaign_report: the reports of a finished campaign (report.md,
 * summary.json, junit.xml, report.html; reports/report.h), written into
 * its folder at the end of `gmfuzz fuzz`, from the folder as it is on
 * disk (repro/repro.h), judged against the campaign's own baseline. */
#ifndef CAMPAIGN_REPORT_H
#define CAMPAIGN_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign_setup.h"
#include "gm_error.h"

/* Writes the reports; `html` gets the path of report.html. */
bool campaign_report_write(const campaign_setup *s, char *html, size_t size, gm_error *err);

#endif
