#include "campaign_report.h"

#include <stdio.h>

#include "repro.h"
#include "report.h"

bool campaign_report_write(const campaign_setup *s, char *html, size_t size, gm_error *err) {
    repro_rundir run;
    if (!repro_rundir_load(s->dir, s->baseline, &run, err)) {
        repro_rundir_free(&run);
        return false;
    }
    bool ok = report_write_all(&run, s->dir, err);
    repro_rundir_free(&run);
    if (ok && snprintf(html, size, "%s/report.html", s->dir) >= (int)size) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", s->dir);
    }
    return ok;
}
