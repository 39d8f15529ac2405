#include "harness.h"

#include <stdio.h>
#include <stdlib.h>

#include "harness_pycall.h"
#include "harness_pyworker.h"

void harness_run_result_init(harness_run_result *r) {
    gm_outputs_init(&r->reference);
    gm_outputs_init(&r->fused);
    r->raised.raised = REFERENCE_OK;
    r->raised.step = 0;
    r->verdict = (gm_verdict){0};
    r->drift[0] = '\0';
    gm_outputs_init(&r->torch);
    r->has_torch = false;
    r->torch_failed = false;
}

void harness_run_result_free(harness_run_result *r) {
    gm_outputs_free(&r->reference);
    gm_outputs_free(&r->fused);
    gm_outputs_free(&r->torch);
    harness_run_result_init(r);
}

/* The reference side alone (prior contents, then the legacy sequence). */
static bool harness_run_reference(const gm_case *c, gm_outputs *out, reference_result *raised,
                                  gm_error *err) {
    return gm_outputs_prepare(out, c, err) && reference_run(c, out, raised, err);
}

bool harness_run_case(harness_backend *b, const gm_case *c, gm_compare level, harness_run_result *r,
                      gm_error *err) {
    if (harness_backend_legacy(b) != NULL) {
        return harness_run_case3(b, NULL, c, level, r, err);
    }
    harness_run_result_free(r);
    if (!harness_run_reference(c, &r->reference, &r->raised, err) ||
        !harness_backend_run(b, c, &r->fused, err)) {
        return false;
    }
    gm_oracle_judge(c, &r->reference, &r->fused, level, &r->verdict);
    return true;
}

/* ---- three-way runs ------------------------------------------------------ */

struct harness_run_legacy {
    harness_pyworker *worker;
    harness_pybatch *batch;
};

bool harness_run_legacy_open(const char *spec, bool device_cuda, double timeout_s,
                             harness_run_legacy **out, gm_error *err) {
    *out = NULL;
    harness_target_spec t;
    if (!harness_target_parse(spec, &t, err)) {
        return false;
    }
    if (t.kind != HARNESS_TARGET_PYTHON) {
        return gm_error_set(err, GM_ERR_USAGE, "--reference takes python:[MODULE][:FUNCTION], not '%s'",
                            spec);
    }
    harness_run_legacy *l = calloc(1, sizeof *l);
    harness_pyworker_config cfg = {HARNESS_PYWORKER_LEGACY, t.path, t.function, !device_cuda,
                                   timeout_s, t.compile_timeout_s, t.start_timeout_s};
    bool ok = l != NULL && harness_pybatch_new(&l->batch, err) &&
              harness_pyworker_start(&cfg, &l->worker, err);
    if (l == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory opening the torch reference");
    }
    if (!ok) {
        harness_run_legacy_close(l);
        return false;
    }
    *out = l;
    return true;
}

void harness_run_legacy_close(harness_run_legacy *l) {
    if (l != NULL) {
        harness_pyworker_stop(l->worker);
        harness_pybatch_free(l->batch);
        free(l);
    }
}

/* Where the torch buffers first differ from the C reference's, or "". */
static void harness_run_first_drift(const gm_case *c, const gm_outputs *ref,
                                    const gm_outputs *torch, char *out, size_t size) {
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

/* Runs the torch legacy sequence on `c` into r->torch and says how it
 * disagrees with the C reference's outcome in `r`. */
static bool harness_run_torch_legacy(harness_run_legacy *l, const gm_case *c, harness_run_result *r,
                                     gm_error *err) {
    gm_outputs *torch = &r->torch;
    gm_outputs_free(torch); /* a run result reused by a batch's next case */
    r->has_torch = r->torch_failed = false;
    r->drift[0] = '\0';
    harness_pycall_result res;
    harness_pybatch_clear(l->batch);
    bool ok = gm_outputs_prepare(torch, c, err);
    if (ok) {
        harness_pycall_add_legacy(l->batch, c, torch);
        ok = harness_pyworker_call(l->worker, l->batch, &res, 0, err);
    }
    r->has_torch = ok;
    bool c_raised = r->reference.error != NULL;
    if (ok && res.status >= HARNESS_PYCALL_CRASHED) {
        r->torch_failed = true;
        snprintf(r->drift, sizeof r->drift, "the torch reference %s: %.400s",
                 res.status == HARNESS_PYCALL_HUNG ? "hung" : "crashed", res.message);
    } else if (ok && res.status == HARNESS_PYCALL_RAISED) {
        gm_outputs_set_error(torch, "%s", res.message);
    }
    if (r->torch_failed) {
        gm_outputs_set_error(torch, "%s", r->drift);
    } else if (ok && c_raised && res.status != HARNESS_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "the C reference raised (%.200s), torch did not",
                 r->reference.error);
    } else if (ok && !c_raised && res.status == HARNESS_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "torch raised, the C reference did not: %.400s",
                 res.message);
    } else if (ok && !c_raised) {
        harness_run_first_drift(c, &r->reference, torch, r->drift, sizeof r->drift);
    }
    return ok;
}

bool harness_run_case3(harness_backend *b, harness_run_legacy *legacy, const gm_case *c,
                       gm_compare level, harness_run_result *r, gm_error *err) {
    harness_run_result_free(r);
    return harness_backend_run(b, c, &r->fused, err) &&
           harness_run_finish(legacy != NULL ? legacy : harness_backend_legacy(b), c, level, r,
                              err);
}

bool harness_run_finish(harness_run_legacy *legacy, const gm_case *c, gm_compare level,
                        harness_run_result *r, gm_error *err) {
    if (!harness_run_reference(c, &r->reference, &r->raised, err)) {
        return false;
    }
    gm_oracle_judge(c, &r->reference, &r->fused, level, &r->verdict);
    if (legacy == NULL) {
        return true;
    }
    if (!harness_run_torch_legacy(legacy, c, r, err)) {
        return false;
    }
    if (r->drift[0] != '\0') {
        r->verdict = (gm_verdict){.status = GM_STATUS_REFERENCE_DRIFT, .compare = level};
    }
    return true;
}
