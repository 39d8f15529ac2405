/* report_time: the ISO-8601 UTC times of reproducers and campaigns
 * ("2026-11-29T12:00:13Z") as seconds, to place them on a chart. */
#ifndef REPORT_TIME_H
#define REPORT_TIME_H

#include <stdbool.h>

/* Seconds since 1970-01-01T00:00:00Z; false when `iso` is not of the form
 * YYYY-MM-DDTHH:MM:SS with an optional fraction and a "Z". */
bool report_time_parse(const char *iso, double *seconds);

#endif
