#define _XOPEN_SOURCE 700 /* realpath */
#include "gm_backend.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gm_backend_cpu.h"
#include "gm_backend_cuda.h"
#include "gm_crash.h"
#include "gm_hub.h"
#include "gm_json.h"
#include "gm_paths.h"
#include "gm_pycall.h"
#include "gm_pyworker.h"
#include "gm_sha256.h"
#include "gm_worker.h"

struct gm_backend {
    gm_target_spec spec;
    gm_worker *worker;     /* the GPU backends and lib: run in a worker process */
    gm_pyworker *python;   /* python: */
    gm_hub_client *hub;    /* any target, run by a target hub (spec.hub) */
    gm_pybatch *batch;
    gm_pycall_result *results;
    size_t results_cap;
    bool has_identity;
    gm_target_record identity;
    char *crash_dir;
};

static bool gm_backend_alloc(const gm_target_spec *spec, gm_backend **out, gm_error *err) {
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a backend");
    }
    (*out)->spec = *spec;
    return true;
}

static bool gm_backend_open_builtin(gm_backend *b, gm_error *err) {
    static const gm_cuda_mode modes[GM_BACKEND_COUNT] = {
        [GM_BACKEND_CUDA] = GM_CUDA_CHECKED,
        [GM_BACKEND_CUDA_GRAPH] = GM_CUDA_GRAPH,
        [GM_BACKEND_CUDA_RAW] = GM_CUDA_RAW,
    };
    gm_backend_kind kind = b->spec.builtin;
    return kind == GM_BACKEND_CPU || gm_worker_start(modes[kind], &b->worker, err);
}

static char *gm_backend_strdup(const char *s) {
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
static bool gm_backend_record_identity(gm_backend *b, const gm_target_record *seen,
                                       gm_error *err) {
    char spec[GM_TARGET_PATH_MAX + 200];
    gm_target_format(&b->spec, spec, sizeof spec);
    gm_target_record *t = &b->identity;
    if (seen != NULL && !gm_target_record_copy(t, seen)) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the target");
    }
    free(t->spec);
    free(t->kind);
    t->spec = gm_backend_strdup(spec);
    t->kind = gm_backend_strdup(b->spec.kind == GM_TARGET_LIB ? "lib" : "python");
    b->has_identity = true;
    return (t->spec != NULL && t->kind != NULL) ||
           gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the target");
}

static bool gm_backend_open_python(gm_backend *b, gm_error *err) {
    gm_pyworker_config cfg = {
        .role = GM_PYWORKER_FUSED,
        .module = b->spec.path,
        .function = b->spec.function,
        .device_cpu = b->spec.device_cpu,
        .timeout_s = b->spec.timeout_s,
    };
    return gm_pybatch_new(&b->batch, err) && gm_pyworker_start(&cfg, &b->python, err) &&
           gm_backend_record_identity(b, gm_pyworker_identity(b->python), err);
}

static bool gm_backend_open_lib(gm_backend *b, gm_error *err) {
    char real[PATH_MAX], digest[65];
    if (realpath(b->spec.path, real) == NULL) {
        return gm_error_set(err, GM_ERR_DEVICE, "lib target %s: %s", b->spec.path,
                            strerror(errno));
    }
    if (!gm_sha256_file(real, digest, err) ||
        !gm_worker_start_lib(real, b->spec.timeout_s, &b->worker, err)) {
        return false;
    }
    gm_target_record seen = {.file = real, .sha256 = digest};
    return gm_backend_record_identity(b, &seen, err);
}

/* The target runs in the hub @spec.hub; an external one's record is the
 * hub's. */
static bool gm_backend_open_hub(gm_backend *b, gm_error *err) {
    if (!gm_hub_client_open(b->spec.hub, &b->hub, err)) {
        return false;
    }
    const gm_target_record *seen = gm_hub_client_identity(b->hub);
    return !gm_target_is_external(&b->spec) || gm_backend_record_identity(b, seen, err);
}

bool gm_backend_open_target(const gm_target_spec *spec, gm_backend **out, gm_error *err) {
    gm_backend *b = NULL;
    if (!gm_backend_alloc(spec, &b, err)) {
        return false;
    }
    bool ok = spec->hub[0]                   ? gm_backend_open_hub(b, err)
              : spec->kind == GM_TARGET_PYTHON ? gm_backend_open_python(b, err)
              : spec->kind == GM_TARGET_LIB  ? gm_backend_open_lib(b, err)
                                             : gm_backend_open_builtin(b, err);
    if (!ok) {
        gm_backend_close(b);
        return false;
    }
    *out = b;
    return true;
}

bool gm_backend_open(gm_backend_kind kind, gm_backend **out, gm_error *err) {
    gm_target_spec spec;
    gm_target_builtin(&spec, kind);
    return gm_backend_open_target(&spec, out, err);
}

void gm_backend_close(gm_backend *b) {
    if (b == NULL) {
        return;
    }
    gm_worker_stop(b->worker);
    gm_pyworker_stop(b->python);
    gm_hub_client_close(b->hub);
    gm_pybatch_free(b->batch);
    free(b->results);
    gm_target_record_free(&b->identity);
    free(b->crash_dir);
    free(b);
}

void gm_backend_set_crash_dir(gm_backend *b, const char *dir) {
    free(b->crash_dir);
    b->crash_dir = gm_backend_strdup(dir);
}

gm_backend_kind gm_backend_kind_of(const gm_backend *b) { return b->spec.builtin; }
const gm_target_spec *gm_backend_spec(const gm_backend *b) { return &b->spec; }

const gm_target_record *gm_backend_identity(const gm_backend *b) {
    return b->has_identity ? &b->identity : NULL;
}

gm_backend_restarts gm_backend_restart_counts(const gm_backend *b) {
    gm_backend_restarts r = {0};
    if (b->hub != NULL) {
        r = gm_hub_client_restarts(b->hub);
    } else if (b->python != NULL) {
        r.crashed = gm_pyworker_restarts(b->python, GM_PYCALL_CRASHED);
        r.hung = gm_pyworker_restarts(b->python, GM_PYCALL_HUNG);
    } else if (b->worker != NULL) {
        r.crashed = gm_worker_restarts(b->worker);
        r.hung = gm_worker_hangs(b->worker);
    }
    return r;
}

/* ---- external targets ------------------------------------------------------ */

/* The fused model on the host into `model`: whether `c` is safe to send
 * (no out-of-bounds access); when it is not, `out` keeps the model's
 * verdict, else `out` holds the prior contents for the target. */
static bool gm_backend_model_says_safe(const gm_case *c, gm_outputs *model, gm_outputs *out,
                                       gm_error *err, bool *safe) {
    if (!gm_outputs_prepare(model, c, err) || !gm_backend_cpu_run(c, model, err)) {
        return false;
    }
    *safe = model->error == NULL;
    gm_outputs_free(out);
    return *safe ? gm_outputs_prepare(out, c, err) : gm_outputs_copy(out, model, err);
}

/* A target that returned buffers other than the fused model's (SPEC
 * section 3) deviates, whatever the reference says: a class cannot cover
 * it (docs/TARGETS.md). */
static void gm_backend_check_deviation(const gm_case *c, const gm_outputs *model, gm_outputs *out) {
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
static void gm_backend_target_failed(gm_backend *b, const gm_case *c, gm_outputs *out,
                                     const gm_pycall_result *res) {
    const char *prefix = res->status == GM_PYCALL_RAISED ? GM_TARGET_RAISED_PREFIX
                         : res->status == GM_PYCALL_HUNG ? GM_TARGET_HUNG_PREFIX
                                                         : GM_TARGET_CRASHED_PREFIX;
    char saved[1200] = "";
    if (res->status != GM_PYCALL_RAISED && b->crash_dir != NULL) {
        char path[1024];
        gm_error save_err = {0};
        if (gm_crash_save(b->crash_dir, c, res->message, path, sizeof path, &save_err)) {
            snprintf(saved, sizeof saved, " (case saved to %s)", path);
        } else {
            snprintf(saved, sizeof saved, " (case NOT saved: %.1000s)", save_err.msg);
        }
    }
    gm_outputs_set_error(out, "%s%s%s", prefix, res->message, saved);
}

static bool gm_backend_results_room(gm_backend *b, size_t n, gm_error *err) {
    if (n <= b->results_cap) {
        return true;
    }
    gm_pycall_result *r = realloc(b->results, n * sizeof *r);
    if (r == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %zu results", n);
    }
    b->results = r;
    b->results_cap = n;
    return true;
}

/* One call on the lib: worker, as a python call's result. */
static void gm_backend_lib_call(gm_backend *b, const gm_case *c, gm_outputs *out,
                                gm_pycall_result *res) {
    gm_worker_status s = gm_worker_call(b->worker, c, out, res->message, sizeof res->message);
    res->status = s == GM_WORKER_OK     ? GM_PYCALL_RETURNED
                  : s == GM_WORKER_HUNG ? GM_PYCALL_HUNG
                                        : GM_PYCALL_CRASHED;
}

static bool gm_backend_external_batch(gm_backend *b, const gm_case *const *cases,
                                      gm_outputs *outs, size_t n, gm_error *err);

/* A batch that crashed or hung: which case did it? Each again, alone. */
static bool gm_backend_external_bisect(gm_backend *b, const gm_case *const *cases,
                                       gm_outputs *outs, const size_t *sent, size_t n_sent,
                                       gm_error *err) {
    for (size_t k = 0; k < n_sent; k++) {
        size_t i = sent[k];
        if (!gm_backend_external_batch(b, &cases[i], &outs[i], 1, err)) {
            return false;
        }
    }
    return true;
}

/* The cases `sent` (indices into cases/outs) in one batch to the hub. */
static bool gm_backend_hub_send(gm_backend *b, const gm_case *const *cases, gm_outputs *outs,
                                const size_t *sent, size_t n_sent, gm_pycall_result *results,
                                gm_error *err) {
    const gm_case **picked = malloc((n_sent ? n_sent : 1) * sizeof *picked);
    gm_outputs **into = malloc((n_sent ? n_sent : 1) * sizeof *into);
    bool ok = picked != NULL && into != NULL;
    for (size_t k = 0; ok && k < n_sent; k++) {
        picked[k] = cases[sent[k]];
        into[k] = &outs[sent[k]];
    }
    ok = ok ? gm_hub_client_call(b->hub, picked, into, n_sent, results, err)
            : gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n_sent);
    free(picked);
    free(into);
    return ok;
}

/* The cases `sent` (indices into cases/outs) on the target: one CALL for a
 * python: worker, one call each for a lib: worker; b->results[k] for the
 * k-th. */
static bool gm_backend_external_send(gm_backend *b, const gm_case *const *cases,
                                     gm_outputs *outs, const size_t *sent, size_t n_sent,
                                     gm_error *err) {
    if (b->hub != NULL) {
        return gm_backend_hub_send(b, cases, outs, sent, n_sent, b->results, err);
    }
    if (b->python == NULL) {
        for (size_t k = 0; k < n_sent; k++) {
            gm_backend_lib_call(b, cases[sent[k]], &outs[sent[k]], &b->results[k]);
        }
        return true;
    }
    gm_pybatch_clear(b->batch);
    for (size_t k = 0; k < n_sent; k++) {
        gm_pycall_add_fused(b->batch, cases[sent[k]], &outs[sent[k]]);
    }
    return gm_pyworker_call(b->python, b->batch, b->results, err);
}

/* What each sent case's result means for its fused outputs. */
static void gm_backend_external_judge(gm_backend *b, const gm_case *const *cases,
                                      gm_outputs *outs, const gm_outputs *models,
                                      const size_t *sent, size_t n_sent) {
    for (size_t k = 0; k < n_sent; k++) {
        size_t i = sent[k];
        if (b->results[k].status != GM_PYCALL_RETURNED) {
            gm_backend_target_failed(b, cases[i], &outs[i], &b->results[k]);
        } else {
            gm_backend_check_deviation(cases[i], &models[i], &outs[i]);
        }
    }
}

static bool gm_backend_external_batch(gm_backend *b, const gm_case *const *cases,
                                      gm_outputs *outs, size_t n, gm_error *err) {
    size_t *sent = calloc(n ? n : 1, sizeof *sent), n_sent = 0;
    gm_outputs *models = calloc(n ? n : 1, sizeof *models);
    bool ok = sent != NULL && models != NULL && gm_backend_results_room(b, n, err);
    if (sent == NULL || models == NULL) {
        gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    for (size_t i = 0; ok && i < n; i++) {
        bool safe = false;
        ok = gm_backend_model_says_safe(cases[i], &models[i], &outs[i], err, &safe);
        if (ok && safe) {
            sent[n_sent++] = i;
        }
    }
    ok = ok && gm_backend_external_send(b, cases, outs, sent, n_sent, err);
    bool broke = false;
    for (size_t k = 0; ok && k < n_sent; k++) {
        broke = broke || b->results[k].status >= GM_PYCALL_CRASHED;
    }
    if (ok && broke && n_sent > 1) {
        ok = gm_backend_external_bisect(b, cases, outs, sent, n_sent, err);
    } else if (ok) {
        gm_backend_external_judge(b, cases, outs, models, sent, n_sent);
    }
    for (size_t i = 0; models != NULL && i < n; i++) {
        gm_outputs_free(&models[i]);
    }
    free(models);
    free(sent);
    return ok;
}

/* A builtin backend's cases on the hub: its failure on a case is the
 * failure of the run, the case saved first, as a worker of our own does. */
static bool gm_backend_hub_builtin(gm_backend *b, const gm_case *const *cases, gm_outputs *outs,
                                   size_t n, gm_error *err) {
    size_t *all = calloc(n ? n : 1, sizeof *all);
    bool ok = all != NULL && gm_backend_results_room(b, n, err);
    for (size_t i = 0; ok && i < n; i++) {
        all[i] = i;
        ok = gm_outputs_prepare(&outs[i], cases[i], err);
    }
    ok = ok && gm_backend_hub_send(b, cases, outs, all, n, b->results, err);
    for (size_t i = 0; ok && i < n; i++) {
        if (b->results[i].status != GM_PYCALL_RETURNED) {
            char saved[1200] = "case not saved (no crash folder)", path[1024];
            gm_error save_err = {0};
            if (b->crash_dir != NULL) {
                bool done = gm_crash_save(b->crash_dir, cases[i], b->results[i].message,
                                                  path, sizeof path, &save_err);
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

bool gm_backend_run(gm_backend *b, const gm_case *c, gm_outputs *out, gm_error *err) {
    if (gm_target_is_external(&b->spec)) {
        return gm_backend_external_batch(b, &c, out, 1, err);
    }
    if (b->hub != NULL) {
        return gm_backend_hub_builtin(b, &c, out, 1, err);
    }
    if (b->worker != NULL) {
        return gm_worker_run(b->worker, c, out, b->crash_dir, err);
    }
    return gm_outputs_prepare(out, c, err) && gm_backend_cpu_run(c, out, err);
}

bool gm_backend_run_batch(gm_backend *b, const gm_case *const *cases, gm_outputs *outs, size_t n,
                          gm_error *err) {
    if (gm_target_is_external(&b->spec)) {
        return gm_backend_external_batch(b, cases, outs, n, err);
    }
    if (b->hub != NULL) {
        return gm_backend_hub_builtin(b, cases, outs, n, err);
    }
    for (size_t i = 0; i < n; i++) {
        if (!gm_backend_run(b, cases[i], &outs[i], err)) {
            return false;
        }
    }
    return true;
}

bool gm_backend_run_raw(gm_backend *b, const gm_case *const *cases, gm_outputs *outs, size_t n,
                        gm_pycall_result *results, gm_error *err) {
    if (gm_target_is_external(&b->spec)) {
        size_t *all = calloc(n ? n : 1, sizeof *all);
        bool ok = all != NULL && gm_backend_results_room(b, n, err);
        for (size_t i = 0; ok && i < n; i++) {
            all[i] = i;
        }
        ok = ok && gm_backend_external_send(b, cases, outs, all, n, err);
        if (ok) {
            memcpy(results, b->results, n * sizeof *results);
        }
        free(all);
        return ok;
    }
    for (size_t i = 0; i < n; i++) {
        gm_error run_err = {0};
        bool ran = gm_backend_run(b, cases[i], &outs[i], &run_err);
        if (!ran && run_err.code != GM_ERR_DEVICE) {
            *err = run_err;
            return false;
        }
        results[i].status = ran ? GM_PYCALL_RETURNED : GM_PYCALL_CRASHED;
        snprintf(results[i].message, sizeof results[i].message, "%s", ran ? "" : run_err.msg);
    }
    return true;
}

