#include "gm_run.h"

void gm_run_result_init(gm_run_result *r) {
    gm_outputs_init(&r->reference);
    gm_outputs_init(&r->fused);
    r->raised.raised = REFERENCE_OK;
    r->raised.step = 0;
    r->verdict = (gm_verdict){0};
}

void gm_run_result_free(gm_run_result *r) {
    gm_outputs_free(&r->reference);
    gm_outputs_free(&r->fused);
    gm_run_result_init(r);
}

bool gm_run_reference(const gm_case *c, gm_outputs *out, reference_result *raised,
                      gm_error *err) {
    return gm_outputs_prepare(out, c, err) && reference_run(c, out, raised, err);
}

bool gm_run_case(gm_backend *b, const gm_case *c, gm_compare level, gm_run_result *r,
                 gm_error *err) {
    gm_run_result_free(r);
    if (!gm_run_reference(c, &r->reference, &r->raised, err) ||
        !gm_backend_run(b, c, &r->fused, err)) {
        return false;
    }
    gm_oracle_judge(c, &r->reference, &r->fused, level, &r->verdict);
    return true;
}
