#include "campaign_status.h"

#include <stdio.h>

void campaign_status_human(uint64_t v, char *out, size_t size) {
    static const char suffix[] = {'k', 'M', 'G', 'T'};
    if (v < 1000) {
        snprintf(out, size, "%u", (unsigned)v);
        return;
    }
    double x = (double)v / 1000.0;
    size_t k = 0;
    while (x >= 999.95 && k + 1 < sizeof suffix) {
        x /= 1000.0;
        k++;
    }
    /* Three significant digits: 1.23M, 20.5k, 512k. */
    int decimals = x < 9.995 ? 2 : (x < 99.95 ? 1 : 0);
    snprintf(out, size, "%.*f%c", decimals, x, suffix[k]);
}

void campaign_status_format(const campaign_status *s, char *out, size_t size) {
    char execs[16], rate[16], cov[16], corpus[16];
    campaign_status_human(s->execs, execs, sizeof execs);
    campaign_status_human(s->exec_per_sec, rate, sizeof rate);
    campaign_status_human(s->coverage, cov, sizeof cov);
    campaign_status_human(s->corpus, corpus, sizeof corpus);
    snprintf(out, size,
             "[%4.0fs/%.0fs] execs %s  exec/s %s  cov %s  corpus %s  signatures %zu (%zu %s)"
             "  jobs %d/%d",
             s->elapsed_s, s->budget_s, execs, rate, cov, corpus, s->signatures, s->failures,
             s->failures == 1 ? "failure" : "failures", s->jobs_running, s->jobs);
}
