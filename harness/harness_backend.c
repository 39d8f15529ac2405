#define _XOPEN_SOURCE 700 /* realpath */
#include "harness_backend.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gm_json.h"
#include "gm_sha256.h"
#include "harness_backend_cpu.h"
#include "harness_backend_cuda.h"
#include "harness_crash.h"
#include "harness_hub_client.h"
#include "harness_pycall.h"
#include "harness_pyworker.h"
#include "harness_worker.h"

struct harness_backend {
    harness_target_spec spec;
    harness_worker *worker;   /* the GPU backends and lib: run in a worker process */
    harness_pyworker *python; /* python: */
    harness_hub_client *hub;  /* any target, run by a target hub (spec.hub) */
    harness_pybatch *batch;
    harness_pycall_result *results;
    size_t results_cap;
    bool has_identity;
    gm_target_record identity;
    char *crash_dir;
};

static bool harness_backend_alloc(const harness_target_spec *spec, harness_backend **out,
                                  gm_error *err) {
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a backend");
    }
    (*out)->spec = *spec;
    return true;
}

static bool harness_backend_open_builtin(harness_backend *b, gm_error *err) {
    static const harness_cuda_mode modes[HARNESS_BACKEND_COUNT] = {
        [HARNESS_BACKEND_CUDA] = HARNESS_CUDA_CHECKED,
        [HARNESS_BACKEND_CUDA_GRAPH] = HARNESS_CUDA_GRAPH,
        [HARNESS_BACKEND_CUDA_RAW] = HARNESS_CUDA_RAW,
    };
    harness_backend_kind kind = b->spec.builtin;
    return kind == HARNESS_BACKEND_CPU || harness_worker_start(modes[kind], &b->worker, err);
}

static char *harness_backend_strdup(const char *s) {
    if (s == NULL) {
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) {
        memcpy(d, s, n);
    }
    return d;
}

/* The reproducer's "target": the spec, its kind, and what the worker or
 * the library file says it is. */
static bool harness_backend_record_identity(harness_backend *b, const gm_target_record *seen,
                                            gm_error *err) {
    char spec[HARNESS_TARGET_PATH_MAX + 200];
    harness_target_format(&b->spec, spec, sizeof spec);
    gm_target_record *t = &b->identity;
    if (seen != NULL && !gm_target_record_copy(t, seen)) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the target");
    }
    free(t->spec);
    free(t->kind);
    t->spec = harness_backend_strdup(spec);
    t->kind = harness_backend_strdup(b->spec.kind == HARNESS_TARGET_LIB ? "lib" : "python");
    b->has_identity = true;
    return (t->spec != NULL && t->kind != NULL) ||
           gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the target");
}

static bool harness_backend_open_python(harness_backend *b, gm_error *err) {
    harness_pyworker_config cfg = {
        .role = HARNESS_PYWORKER_FUSED,
        .module = b->spec.path,
        .function = b->spec.function,
        .device_cpu = b->spec.device_cpu,
        .timeout_s = b->spec.timeout_s,
    };
    return harness_pybatch_new(&b->batch, err) && harness_pyworker_start(&cfg, &b->python, err) &&
           harness_backend_record_identity(b, harness_pyworker_identity(b->python), err);
}

static bool harness_backend_open_lib(harness_backend *b, gm_error *err) {
    char real[PATH_MAX], digest[65];
    if (realpath(b->spec.path, real) == NULL) {
        return gm_error_set(err, GM_ERR_DEVICE, "lib target %s: %s", b->spec.path,
                            strerror(errno));
    }
    if (!gm_sha256_file(real, digest, err) ||
        !harness_worker_start_lib(real, b->spec.timeout_s, &b->worker, err)) {
        return false;
    }
    gm_target_record seen = {.file = real, .sha256 = digest};
    return harness_backend_record_identity(b, &seen, err);
}

/* The target runs in the hub @spec.hub; an external one's record is the
 * hub's. */
static bool harness_backend_open_hub(harness_backend *b, gm_error *err) {
    if (!harness_hub_client_open(b->spec.hub, &b->hub, err)) {
        return false;
    }
    const gm_target_record *seen = harness_hub_client_identity(b->hub);
    return !harness_target_is_external(&b->spec) || harness_backend_record_identity(b, seen, err);
}

bool harness_backend_open_target(const harness_target_spec *spec, harness_backend **out,
                                 gm_error *err) {
    harness_backend *b = NULL;
    if (!harness_backend_alloc(spec, &b, err)) {
        return false;
    }
    bool ok = spec->hub[0]                          ? harness_backend_open_hub(b, err)
              : spec->kind == HARNESS_TARGET_PYTHON ? harness_backend_open_python(b, err)
              : spec->kind == HARNESS_TARGET_LIB    ? harness_backend_open_lib(b, err)
                                                    : harness_backend_open_builtin(b, err);
    if (!ok) {
        harness_backend_close(b);
        return false;
    }
    *out = b;
    return true;
}

bool harness_backend_open(harness_backend_kind kind, harness_backend **out, gm_error *err) {
    harness_target_spec spec;
    harness_target_builtin(&spec, kind);
    return harness_backend_open_target(&spec, out, err);
}

void harness_backend_close(harness_backend *b) {
    if (b == NULL) {
        return;
    }
    harness_worker_stop(b->worker);
    harness_pyworker_stop(b->python);
    harness_hub_client_close(b->hub);
    harness_pybatch_free(b->batch);
    free(b->results);
    gm_target_record_free(&b->identity);
    free(b->crash_dir);
    free(b);
}

void harness_backend_set_crash_dir(harness_backend *b, const char *dir) {
    free(b->crash_dir);
    b->crash_dir = harness_backend_strdup(dir);
}

harness_backend_kind harness_backend_kind_of(const harness_backend *b) { return b->spec.builtin; }
const harness_target_spec *harness_backend_spec(const harness_backend *b) { return &b->spec; }

const gm_target_record *harness_backend_identity(const harness_backend *b) {
    return b->has_identity ? &b->identity : NULL;
}

harness_backend_restarts harness_backend_restart_counts(const harness_backend *b) {
    harness_backend_restarts r = {0};
    if (b->hub != NULL) {
        r = harness_hub_client_restarts(b->hub);
    } else if (b->python != NULL) {
        r.crashed = harness_pyworker_restarts(b->python, HARNESS_PYCALL_CRASHED);
        r.hung = harness_pyworker_restarts(b->python, HARNESS_PYCALL_HUNG);
    } else if (b->worker != NULL) {
        r.crashed = harness_worker_restarts(b->worker);
        r.hung = harness_worker_hangs(b->worker);
    }
    return r;
}

/* ---- external targets ------------------------------------------------------ */

bool harness_backend_run_model(const gm_case *c, gm_outputs *model, bool *safe, gm_error *err) {
    if (!gm_outputs_prepare(model, c, err) || !harness_backend_cpu_run(c, model, err)) {
        return false;
    }
    *safe = model->error == NULL;
    return true;
}

/* The fused model on the host into `model`: whether `c` is safe to send
 * (no out-of-bounds access); when it is not, `out` keeps the model's
 * verdict, else `out` holds the prior contents for the target. */
static bool harness_backend_model_says_safe(const gm_case *c, gm_outputs *model, gm_outputs *out,
                                            gm_error *err, bool *safe) {
    if (!harness_backend_run_model(c, model, safe, err)) {
        return false;
    }
    gm_outputs_free(out);
    return *safe ? gm_outputs_prepare(out, c, err) : gm_outputs_copy(out, model, err);
}

/* A target that returned buffers other than the fused model's (SPEC
 * section 3) deviates, whatever the reference says: a class cannot cover
 * it (docs/TARGETS.md). */
static void harness_backend_check_deviation(const gm_case *c, const gm_outputs *model,
                                            gm_outputs *out) {
    gm_verdict v;
    gm_oracle_compare_buffers(c, model, out, GM_COMPARE_STRICT, &v);
    if (v.status == GM_STATUS_MISMATCH) {
        const gm_difference *d = &v.first;
        char where[64];
        snprintf(where, sizeof where, d->rank == 2 ? "[%zu][%zu]" : "[%zu]", d->index[0],
                 d->index[1]);
        gm_outputs_set_error(out,
                             GM_TARGET_DEVIATES_PREFIX "%s%s: the fused model %lld, the target "
                                                       "%lld (%zu elements differ)",
                             gm_buf_name(d->buf), where, (long long)d->reference,
                             (long long)d->fused, v.n_differences);
    }
}

/* A target's failure on `c` as the fused side's error; the case is saved
 * first when the worker died or hung. */
static void harness_backend_target_failed(harness_backend *b, const gm_case *c, gm_outputs *out,
                                          const harness_pycall_result *res) {
    const char *prefix = res->status == HARNESS_PYCALL_RAISED ? GM_TARGET_RAISED_PREFIX
                         : res->status == HARNESS_PYCALL_HUNG ? GM_TARGET_HUNG_PREFIX
                                                              : GM_TARGET_CRASHED_PREFIX;
    char saved[1200] = "";
    if (res->status != HARNESS_PYCALL_RAISED && b->crash_dir != NULL) {
        char path[1024];
        gm_error save_err = {0};
        if (harness_crash_save(b->crash_dir, c, res->message, path, sizeof path, &save_err)) {
            snprintf(saved, sizeof saved, " (case saved to %s)", path);
        } else {
            snprintf(saved, sizeof saved, " (case NOT saved: %.1000s)", save_err.msg);
        }
    }
    gm_outputs_set_error(out, "%s%s%s", prefix, res->message, saved);
}

static bool harness_backend_results_room(harness_backend *b, size_t n, gm_error *err) {
    if (n <= b->results_cap) {
        return true;
    }
    harness_pycall_result *r = realloc(b->results, n * sizeof *r);
    if (r == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %zu results", n);
    }
    b->results = r;
    b->results_cap = n;
    return true;
}

/* One call on the lib: worker, as a python call's result. */
static void harness_backend_lib_call(harness_backend *b, const gm_case *c, gm_outputs *out,
                                     harness_pycall_result *res) {
    harness_worker_status s =
        harness_worker_call(b->worker, c, out, res->message, sizeof res->message);
    res->status = s == HARNESS_WORKER_OK     ? HARNESS_PYCALL_RETURNED
                  : s == HARNESS_WORKER_HUNG ? HARNESS_PYCALL_HUNG
                                             : HARNESS_PYCALL_CRASHED;
}

static bool harness_backend_external_batch(harness_backend *b, const gm_case *const *cases,
                                           gm_outputs *outs, size_t n, gm_error *err);

/* A batch that crashed or hung: which case did it? Each again, alone. */
static bool harness_backend_external_bisect(harness_backend *b, const gm_case *const *cases,
                                            gm_outputs *outs, const size_t *sent, size_t n_sent,
                                            gm_error *err) {
    for (size_t k = 0; k < n_sent; k++) {
        size_t i = sent[k];
        if (!harness_backend_external_batch(b, &cases[i], &outs[i], 1, err)) {
            return false;
        }
    }
    return true;
}

/* The cases `sent` (indices into cases/outs) in one batch to the hub. */
static bool harness_backend_hub_send(harness_backend *b, const gm_case *const *cases,
                                     gm_outputs *outs, const size_t *sent, size_t n_sent,
                                     harness_pycall_result *results, gm_error *err) {
    const gm_case **picked = malloc((n_sent ? n_sent : 1) * sizeof *picked);
    gm_outputs **into = malloc((n_sent ? n_sent : 1) * sizeof *into);
    bool ok = picked != NULL && into != NULL;
    for (size_t k = 0; ok && k < n_sent; k++) {
        picked[k] = cases[sent[k]];
        into[k] = &outs[sent[k]];
    }
    ok = ok ? harness_hub_client_call(b->hub, picked, into, n_sent, results, err)
            : gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n_sent);
    free(picked);
    free(into);
    return ok;
}

/* The cases `sent` (indices into cases/outs) on the target: one CALL for a
 * python: worker, one call each for a lib: worker; b->results[k] for the
 * k-th. */
static bool harness_backend_external_send(harness_backend *b, const gm_case *const *cases,
                                          gm_outputs *outs, const size_t *sent, size_t n_sent,
                                          gm_error *err) {
    if (b->hub != NULL) {
        return harness_backend_hub_send(b, cases, outs, sent, n_sent, b->results, err);
    }
    if (b->python == NULL) {
        for (size_t k = 0; k < n_sent; k++) {
            harness_backend_lib_call(b, cases[sent[k]], &outs[sent[k]], &b->results[k]);
        }
        return true;
    }
    harness_pybatch_clear(b->batch);
    for (size_t k = 0; k < n_sent; k++) {
        harness_pycall_add_fused(b->batch, cases[sent[k]], &outs[sent[k]]);
    }
    return harness_pyworker_call(b->python, b->batch, b->results, err);
}

/* What each sent case's result means for its fused outputs. */
static void harness_backend_external_judge(harness_backend *b, const gm_case *const *cases,
                                           gm_outputs *outs, const gm_outputs *const *models,
                                           const size_t *sent, size_t n_sent) {
    for (size_t k = 0; k < n_sent; k++) {
        size_t i = sent[k];
        if (b->results[k].status != HARNESS_PYCALL_RETURNED) {
            harness_backend_target_failed(b, cases[i], &outs[i], &b->results[k]);
        } else {
            harness_backend_check_deviation(cases[i], models[i], &outs[i]);
        }
    }
}

/* The cases `sent`, which their fused models (models[i]) found safe, on the
 * target in one batch; outs[i] hold their prior contents. */
static bool harness_backend_external_modeled(harness_backend *b, const gm_case *const *cases,
                                             const gm_outputs *const *models, gm_outputs *outs,
                                             const size_t *sent, size_t n_sent, gm_error *err) {
    bool ok = harness_backend_external_send(b, cases, outs, sent, n_sent, err);
    bool broke = false;
    for (size_t k = 0; ok && k < n_sent; k++) {
        broke = broke || b->results[k].status >= HARNESS_PYCALL_CRASHED;
    }
    if (ok && broke && n_sent > 1) {
        return harness_backend_external_bisect(b, cases, outs, sent, n_sent, err);
    }
    if (ok) {
        harness_backend_external_judge(b, cases, outs, models, sent, n_sent);
    }
    return ok;
}

static bool harness_backend_external_batch(harness_backend *b, const gm_case *const *cases,
                                           gm_outputs *outs, size_t n, gm_error *err) {
    size_t *sent = calloc(n ? n : 1, sizeof *sent), n_sent = 0;
    gm_outputs *models = calloc(n ? n : 1, sizeof *models);
    const gm_outputs **model_of = calloc(n ? n : 1, sizeof *model_of);
    bool ok = sent != NULL && models != NULL && model_of != NULL &&
              harness_backend_results_room(b, n, err);
    if (sent == NULL || models == NULL || model_of == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    for (size_t i = 0; ok && i < n; i++) {
        bool safe = false;
        model_of[i] = &models[i];
        ok = harness_backend_model_says_safe(cases[i], &models[i], &outs[i], err, &safe);
        if (ok && safe) {
            sent[n_sent++] = i;
        }
    }
    ok = ok && harness_backend_external_modeled(b, cases, model_of, outs, sent, n_sent, err);
    for (size_t i = 0; models != NULL && i < n; i++) {
        gm_outputs_free(&models[i]);
    }
    free(model_of);
    free(models);
    free(sent);
    return ok;
}

bool harness_backend_run_modeled(harness_backend *b, const gm_case *const *cases,
                                 const gm_outputs *const *models, gm_outputs *outs, size_t n,
                                 gm_error *err) {
    if (!harness_target_is_external(&b->spec)) {
        return gm_error_set(err, GM_ERR_USAGE,
                            "harness_backend_run_modeled: the builtin %s is not an external target",
                            harness_target_backend_name(b->spec.builtin));
    }
    size_t *all = calloc(n ? n : 1, sizeof *all);
    bool ok = all != NULL && harness_backend_results_room(b, n, err);
    if (all == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    for (size_t i = 0; ok && i < n; i++) {
        all[i] = i;
        gm_outputs_free(&outs[i]);
        ok = gm_outputs_prepare(&outs[i], cases[i], err);
    }
    ok = ok && harness_backend_external_modeled(b, cases, models, outs, all, n, err);
    free(all);
    return ok;
}

/* A builtin backend's cases on the hub: its failure on a case is the
 * failure of the run, the case saved first, as a worker of our own does. */
static bool harness_backend_hub_builtin(harness_backend *b, const gm_case *const *cases,
                                        gm_outputs *outs, size_t n, gm_error *err) {
    size_t *all = calloc(n ? n : 1, sizeof *all);
    bool ok = all != NULL && harness_backend_results_room(b, n, err);
    for (size_t i = 0; ok && i < n; i++) {
        all[i] = i;
        ok = gm_outputs_prepare(&outs[i], cases[i], err);
    }
    ok = ok && harness_backend_hub_send(b, cases, outs, all, n, b->results, err);
    for (size_t i = 0; ok && i < n; i++) {
        if (b->results[i].status != HARNESS_PYCALL_RETURNED) {
            char saved[1200] = "case not saved (no crash folder)", path[1024];
            gm_error save_err = {0};
            if (b->crash_dir != NULL) {
                bool done = harness_crash_save(b->crash_dir, cases[i], b->results[i].message, path,
                                               sizeof path, &save_err);
                snprintf(saved, sizeof saved, done ? "case saved to %s" : "case NOT saved: %s",
                         done ? path : save_err.msg);
            }
            ok = gm_error_set(err, GM_ERR_DEVICE, "%.1500s; %s (target hub @%s)",
                              b->results[i].message, saved, b->spec.hub);
        }
    }
    free(all);
    return ok;
}

bool harness_backend_run(harness_backend *b, const gm_case *c, gm_outputs *out, gm_error *err) {
    if (harness_target_is_external(&b->spec)) {
        return harness_backend_external_batch(b, &c, out, 1, err);
    }
    if (b->hub != NULL) {
        return harness_backend_hub_builtin(b, &c, out, 1, err);
    }
    if (b->worker != NULL) {
        return harness_worker_run(b->worker, c, out, b->crash_dir, err);
    }
    return gm_outputs_prepare(out, c, err) && harness_backend_cpu_run(c, out, err);
}

bool harness_backend_run_batch(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                               size_t n, gm_error *err) {
    if (harness_target_is_external(&b->spec)) {
        return harness_backend_external_batch(b, cases, outs, n, err);
    }
    if (b->hub != NULL) {
        return harness_backend_hub_builtin(b, cases, outs, n, err);
    }
    for (size_t i = 0; i < n; i++) {
        if (!harness_backend_run(b, cases[i], &outs[i], err)) {
            return false;
        }
    }
    return true;
}

bool harness_backend_run_raw(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                             size_t n, harness_pycall_result *results, gm_error *err) {
    if (harness_target_is_external(&b->spec)) {
        size_t *all = calloc(n ? n : 1, sizeof *all);
        bool ok = all != NULL && harness_backend_results_room(b, n, err);
        for (size_t i = 0; ok && i < n; i++) {
            all[i] = i;
        }
        ok = ok && harness_backend_external_send(b, cases, outs, all, n, err);
        if (ok) {
            memcpy(results, b->results, n * sizeof *results);
        }
        free(all);
        return ok;
    }
    for (size_t i = 0; i < n; i++) {
        gm_error run_err = {0};
        bool ran = harness_backend_run(b, cases[i], &outs[i], &run_err);
        if (!ran && run_err.code != GM_ERR_DEVICE) {
            *err = run_err;
            return false;
        }
        results[i].status = ran ? HARNESS_PYCALL_RETURNED : HARNESS_PYCALL_CRASHED;
        snprintf(results[i].message, sizeof results[i].message, "%s", ran ? "" : run_err.msg);
    }
    return true;
}
