#include "campaign_status.h"

#include <stdio.h>

#include "report_format.h"

void campaign_status_format(const campaign_status *s, char *out, size_t size) {
    char execs[16], rate[16], cov[16], corpus[16];
    report_format_count(s->execs, execs, sizeof execs);
    report_format_count(s->exec_per_sec, rate, sizeof rate);
    report_format_count(s->coverage, cov, sizeof cov);
    report_format_count(s->corpus, corpus, sizeof corpus);
    snprintf(out, size,
             "[%4.0fs/%.0fs] execs %s  exec/s %s  cov %s  corpus %s  signatures %zu (%zu %s)"
             "  jobs %d/%d",
             s->elapsed_s, s->budget_s, execs, rate, cov, corpus, s->signatures, s->failures,
             s->failures == 1 ? "failure" : "failures", s->jobs_running, s->jobs);
}
