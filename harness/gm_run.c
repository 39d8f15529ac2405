#include "gm_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "gm_pycall.h"
#include "gm_pyworker.h"

void gm_run_result_init(gm_run_result *r) {
    gm_outputs_init(&r->reference);
    gm_outputs_init(&r->fused);
    r->raised.raised = REFERENCE_OK;
    r->raised.step = 0;
    r->verdict = (gm_verdict){0};
    r->drift[0] = '\0';
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

/* ---- three-way runs ------------------------------------------------------ */

struct gm_legacy {
    gm_pyworker *worker;
    gm_pybatch *batch;
};

bool gm_legacy_open(const char *spec, bool device_cuda, double timeout_s, gm_legacy **out,
                    gm_error *err) {
    *out = NULL;
    gm_target_spec t;
    if (!gm_target_parse(spec, &t, err)) {
        return false;
    }
    if (t.kind != GM_TARGET_PYTHON) {
        return gm_error_set(err, GM_ERR_USAGE, "--reference takes python:[MODULE][:FUNCTION], not '%s'",
                            spec);
    }
    gm_legacy *l = calloc(1, sizeof *l);
    gm_pyworker_config cfg = {GM_PYWORKER_LEGACY, t.path, t.function, !device_cuda, timeout_s};
    bool ok = l != NULL && gm_pybatch_new(&l->batch, err) && gm_pyworker_start(&cfg, &l->worker, err);
    if (l == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory opening the torch reference");
    }
    if (!ok) {
        gm_legacy_close(l);
        return false;
    }
    *out = l;
    return true;
}

void gm_legacy_close(gm_legacy *l) {
    if (l != NULL) {
        gm_pyworker_stop(l->worker);
        gm_pybatch_free(l->batch);
        free(l);
    }
}

/* Where the torch buffers first differ from the C reference's, or "". */
static void gm_run_first_drift(const gm_case *c, const gm_outputs *ref, const gm_outputs *torch,
                               char *out, size_t size) {
    gm_verdict v;
    gm_oracle_compare_buffers(c, ref, torch, GM_COMPARE_STRICT, &v);
    out[0] = '\0';
    if (v.status == GM_STATUS_MISMATCH) {
        const gm_difference *d = &v.first;
        char where[64];
        if (d->rank == 2) {
            snprintf(where, sizeof where, "[%zu][%zu]", d->index[0], d->index[1]);
        } else {
            snprintf(where, sizeof where, "[%zu]", d->index[0]);
        }
        snprintf(out, size, "%s%s: C reference %lld, torch %lld (%zu elements differ)",
                 gm_buf_name(d->buf), where, (long long)d->reference, (long long)d->fused,
                 v.n_differences);
    }
}

/* Runs the torch legacy sequence on `c` and says how it disagrees with the
 * C reference's outcome in `r`. */
static bool gm_run_torch_legacy(gm_legacy *l, const gm_case *c, gm_run_result *r, gm_error *err) {
    gm_outputs torch;
    gm_outputs_init(&torch);
    gm_pycall_result res;
    gm_pybatch_clear(l->batch);
    bool ok = gm_outputs_prepare(&torch, c, err);
    if (ok) {
        gm_pycall_add_legacy(l->batch, c, &torch);
        ok = gm_pyworker_call(l->worker, l->batch, &res, err);
    }
    bool c_raised = r->reference.error != NULL;
    if (ok && res.status >= GM_PYCALL_CRASHED) {
        snprintf(r->drift, sizeof r->drift, "the torch reference %s: %.400s",
                 res.status == GM_PYCALL_HUNG ? "hung" : "crashed", res.message);
    } else if (ok && c_raised && res.status != GM_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "the C reference raised (%.200s), torch did not",
                 r->reference.error);
    } else if (ok && !c_raised && res.status == GM_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "torch raised, the C reference did not: %.400s",
                 res.message);
    } else if (ok && !c_raised) {
        gm_run_first_drift(c, &r->reference, &torch, r->drift, sizeof r->drift);
    }
    gm_outputs_free(&torch);
    return ok;
}

bool gm_run_case3(gm_backend *b, gm_legacy *legacy, const gm_case *c, gm_compare level,
                  gm_run_result *r, gm_error *err) {
    gm_run_result_free(r);
    return gm_backend_run(b, c, &r->fused, err) && gm_run_finish(legacy, c, level, r, err);
}

bool gm_run_finish(gm_legacy *legacy, const gm_case *c, gm_compare level, gm_run_result *r,
                   gm_error *err) {
    if (!gm_run_reference(c, &r->reference, &r->raised, err)) {
        return false;
    }
    gm_oracle_judge(c, &r->reference, &r->fused, level, &r->verdict);
    if (legacy == NULL) {
        return true;
    }
    if (!gm_run_torch_legacy(legacy, c, r, err)) {
        return false;
    }
    if (r->drift[0] != '\0') {
        r->verdict = (gm_verdict){.status = GM_STATUS_REFERENCE_DRIFT, .compare = level};
    }
    return true;
}
