#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
    harness_run_legacy_spent spent;
};

static double harness_run_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

harness_run_legacy_spent harness_run_legacy_spent_of(const harness_run_legacy *l) {
    harness_run_legacy_spent none = {0};
    return l != NULL ? l->spent : none;
}

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
    double t0 = harness_run_now();
    bool ok = l != NULL && harness_pybatch_new(&l->batch, err) &&
              harness_pyworker_start(&cfg, &l->worker, err);
    if (l != NULL) {
        l->spent.start_seconds = harness_run_now() - t0;
    }
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

/* Readies r->torch for `c` (a run result may be reused) and adds the call. */
static bool harness_run_torch_add(harness_run_legacy *l, const gm_case *c, harness_run_result *r,
                                  gm_error *err) {
    gm_outputs_free(&r->torch);
    r->has_torch = r->torch_failed = false;
    r->drift[0] = '\0';
    if (!gm_outputs_prepare(&r->torch, c, err)) {
        return false;
    }
    harness_pycall_add_legacy(l->batch, c, &r->torch);
    return true;
}

/* Sends the batch: results[k] for its call k; counts the time. */
static bool harness_run_torch_send(harness_run_legacy *l, harness_pycall_result *results,
                                   gm_error *err) {
    size_t n = harness_pybatch_count(l->batch);
    double t0 = harness_run_now();
    bool ok = harness_pybatch_ok(l->batch)
                  ? harness_pyworker_call(l->worker, l->batch, results, 0, err)
                  : gm_error_set(err, GM_ERR_MEMORY, "out of memory building the torch batch");
    l->spent.seconds += harness_run_now() - t0;
    l->spent.calls++;
    l->spent.cases += n;
    return ok;
}

/* How torch's answer `res` (its buffers in r->torch) disagrees with the C
 * reference's outcome in `r`: r->drift, "" when they agree. */
static void harness_run_torch_judge(const gm_case *c, const harness_pycall_result *res,
                                    harness_run_result *r) {
    gm_outputs *torch = &r->torch;
    bool c_raised = r->reference.error != NULL;
    r->has_torch = true;
    if (res->status >= HARNESS_PYCALL_CRASHED) {
        r->torch_failed = true;
        snprintf(r->drift, sizeof r->drift, "the torch reference %s: %.400s",
                 res->status == HARNESS_PYCALL_HUNG ? "hung" : "crashed", res->message);
        gm_outputs_set_error(torch, "%s", r->drift);
        return;
    }
    if (res->status == HARNESS_PYCALL_RAISED) {
        gm_outputs_set_error(torch, "%s", res->message);
    }
    if (c_raised && res->status != HARNESS_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "the C reference raised (%.200s), torch did not",
                 r->reference.error);
    } else if (!c_raised && res->status == HARNESS_PYCALL_RAISED) {
        snprintf(r->drift, sizeof r->drift, "torch raised, the C reference did not: %.400s",
                 res->message);
    } else if (!c_raised) {
        harness_run_first_drift(c, &r->reference, torch, r->drift, sizeof r->drift);
    }
    if (r->drift[0] != '\0') {
        r->verdict = (gm_verdict){.status = GM_STATUS_REFERENCE_DRIFT, .compare = r->verdict.compare};
    }
}

/* The torch legacy sequence on cases[0..n) (runs[k] judged already on the
 * C side), in ONE worker message: a sweep's batch costs one round trip,
 * not n. */
static bool harness_run_torch_batch(harness_run_legacy *l, const gm_case *const *cases, size_t n,
                                    harness_run_result *runs, gm_error *err) {
    harness_pycall_result *results = calloc(n ? n : 1, sizeof *results);
    bool ok = results != NULL;
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory for %zu torch results", n);
    }
    harness_pybatch_clear(l->batch);
    for (size_t k = 0; ok && k < n; k++) {
        ok = harness_run_torch_add(l, cases[k], &runs[k], err);
    }
    ok = ok && harness_run_torch_send(l, results, err);
    for (size_t k = 0; ok && k < n; k++) {
        harness_run_torch_judge(cases[k], &results[k], &runs[k]);
    }
    free(results);
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
    return harness_run_finish_batch(legacy, &c, 1, level, r, err);
}

bool harness_run_finish_batch(harness_run_legacy *legacy, const gm_case *const *cases, size_t n,
                              gm_compare level, harness_run_result *runs, gm_error *err) {
    for (size_t k = 0; k < n; k++) {
        harness_run_result *r = &runs[k];
        if (!harness_run_reference(cases[k], &r->reference, &r->raised, err)) {
            return false;
        }
        gm_oracle_judge(cases[k], &r->reference, &r->fused, level, &r->verdict);
    }
    return legacy == NULL || harness_run_torch_batch(legacy, cases, n, runs, err);
}
