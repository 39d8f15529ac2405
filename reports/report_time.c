#include "report_time.h"

#include <stdio.h>
#include <string.h>

static bool report_time_leap(long y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to the first of month `m` (1-12) of year `y`. */
static long report_time_days(long y, int m) {
    static const int before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    long days = 0;
    for (long k = 1970; k < y; k++) {
        days += report_time_leap(k) ? 366 : 365;
    }
    return days + before[m - 1] + (m > 2 && report_time_leap(y) ? 1 : 0);
}

bool report_time_parse(const char *iso, double *seconds) {
    int y, mo, d, h, mi, s, used = 0;
    if (sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &used) != 6 ||
        used != 19 || y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || s > 60 || h < 0 || mi < 0 || s < 0) {
        return false;
    }
    double fraction = 0.0;
    const char *rest = iso + used;
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
    long days = report_time_days(y, mo) + d - 1;
    *seconds = (double)days * 86400.0 + h * 3600.0 + mi * 60.0 + s + fraction;
    return true;
}
