#include "report_format.h"

#include <inttypes.h>
#include <stdio.h>

void report_format_count(uint64_t v, char *out, size_t size) {
    static const char suffix[] = {'k', 'M', 'G', 'T', 'P'};
    if (v < 1000) {
        snprintf(out, size, "%" PRIu64, v);
        return;
    }
    double x = (double)v / 1000.0;
    size_t k = 0;
    while (x >= 999.95 && k + 1 < sizeof suffix) {
        x /= 1000.0;
        k++;
    }
    /* Three significant digits. */
    int decimals = x < 9.995 ? 2 : (x < 99.95 ? 1 : 0);
    snprintf(out, size, "%.*f%c", decimals, x, suffix[k]);
}

void report_format_duration(double seconds, char *out, size_t size) {
    if (!(seconds >= 0.0)) { /* also NaN */
        snprintf(out, size, "?");
    } else if (seconds < 60.0) {
        snprintf(out, size, "%.1f s", seconds);
    } else if (seconds < 3600.0) {
        long s = (long)(seconds + 0.5);
        snprintf(out, size, "%ld min %ld s", s / 60, s % 60);
    } else if (seconds < 1e12) {
        long long m = (long long)(seconds / 60.0 + 0.5);
        snprintf(out, size, "%lld h %02lld min", m / 60, m % 60);
    } else {
        snprintf(out, size, "%.3g s", seconds);
    }
}

uint64_t report_format_rate(uint64_t execs, double seconds) {
    if (!(seconds > 0.0)) {
        return 0;
    }
    double rate = (double)execs / seconds;
    return rate < 1.8e19 ? (uint64_t)rate : UINT64_MAX;
}

bool report_format_difference(const gm_difference *d, char *out, size_t size) {
    if (!d->present || d->buf >= GM_BUF_COUNT) {
        if (size > 0) {
            out[0] = '\0';
        }
        return false;
    }
    if (d->rank == 2) {
        snprintf(out, size, "%s[%zu][%zu]: reference %" PRId64 ", fused %" PRId64,
                 gm_buf_name(d->buf), d->index[0], d->index[1], d->reference, d->fused);
    } else {
        snprintf(out, size, "%s[%zu]: reference %" PRId64 ", fused %" PRId64,
                 gm_buf_name(d->buf), d->index[0], d->reference, d->fused);
    }
    return true;
}

void report_format_finding(const repro_rundir_signature *s, char *out, size_t size) {
    if (s->stale != NULL) { /* what it records is not what it shows: say so first */
        snprintf(out, size, "stale reproducer: %s", s->stale);
        return;
    }
    if (report_format_difference(&s->first_difference, out, size)) {
        return;
    }
    const char *what = "no difference recorded";
    if (s->finding.status == GM_STATUS_REFERENCE_ERROR) {
        what = "the legacy path raised: no buffers to compare";
    } else if (s->finding.status == GM_STATUS_FUSED_OUT_OF_BOUNDS) {
        what = "the fused kernel would access memory outside its buffers";
    } else if (s->finding.status == GM_STATUS_TARGET_FAILED) {
        what = "the target raised, crashed or hung";
    } else if (s->finding.status == GM_STATUS_REFERENCE_DRIFT) {
        what = "the C reference and real PyTorch disagree";
    }
    snprintf(out, size, "%s", what);
}

const char *report_format_decision(const triage_baseline_entry *e) {
    return e->known ? triage_decision_name(e->decision) : "NEW";
}
