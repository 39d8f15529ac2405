/* history_verdict: one reproducer run again on a target, and whether its
 * finding is still there. The run and the classification are replay's and
 * the campaign's (harness_run_case, triage_classify); the recorded bucket
 * is the one triage shows (repro_recorded_finding). */
#include "history.h"

#include <string.h>

#include "repro.h"

const char *history_state_name(history_state s) {
    static const char *const names[] = {"still_failing", "fixed", "changed"};
    return names[s];
}

bool history_verdict_run(harness_backend *b, const gm_doc *doc, history_verdict *out,
                         gm_error *err) {
    memset(out, 0, sizeof *out);
    if (doc->kind != GM_DOC_REPRO) {
        return gm_error_set(err, GM_ERR_USAGE, "not a reproducer (gmfuzz-repro-v1): nothing "
                            "records a finding to look for");
    }
    triage_finding was;
    repro_recorded_finding(doc, &was);
    if (was.status == GM_STATUS_MATCH || was.bucket[0] == '\0') {
        return gm_error_set(err, GM_ERR_USAGE, "the reproducer records no finding (its "
                            "outputs match)");
    }
    snprintf(out->recorded, sizeof out->recorded, "%s", was.bucket);
    harness_run_result r;
    harness_run_result_init(&r);
    bool ran = harness_run_case(b, &doc->c, doc->repro.verdict.compare, &r, err);
    if (ran) {
        triage_finding now;
        triage_classify(&doc->c, &r, &now);
        if (now.status != GM_STATUS_MATCH) {
            snprintf(out->now, sizeof out->now, "%s", now.bucket);
            snprintf(out->signature, sizeof out->signature, "%s", now.signature);
        }
        /* a drift is about the two references: gone, it is fixed, whatever
         * the fused side shows against the C reference now */
        bool drift_gone = was.status == GM_STATUS_REFERENCE_DRIFT &&
                          now.status != GM_STATUS_REFERENCE_DRIFT &&
                          harness_backend_legacy(b) != NULL;
        out->state = now.status == GM_STATUS_MATCH || drift_gone ? HISTORY_FIXED
                     : strcmp(now.bucket, was.bucket) == 0      ? HISTORY_STILL
                                                                : HISTORY_CHANGED;
    }
    harness_run_result_free(&r);
    return ran;
}
