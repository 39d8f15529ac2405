#define _GNU_SOURCE /* strptime (X/Open), timegm */
#include "report_time.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* strptime reads the fields; timegm turns them into seconds, normalizing
 * what is out of range (February 31st becomes March 3rd), so a date is
 * valid only when it comes back from gmtime_r as it went in. */
bool report_time_parse(const char *iso, double *seconds) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *rest = strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm);
    if (rest == NULL || rest - iso != 19 || tm.tm_year < 70) {
        return false;
    }
    double fraction = 0.0;
    if (*rest == '.') {
        int digits = 0;
        if (sscanf(rest, "%lf%n", &fraction, &digits) != 1) {
            return false;
        }
        rest += digits;
    }
    if (strcmp(rest, "Z") != 0) {
        return false;
    }
    struct tm given = tm, back;
    time_t t = timegm(&tm);
    if (t == (time_t)-1 || gmtime_r(&t, &back) == NULL || back.tm_mday != given.tm_mday ||
        back.tm_mon != given.tm_mon || back.tm_year != given.tm_year) {
        return false;
    }
    *seconds = (double)t + fraction;
    return true;
}
