/* harness_backend: the seam (harness.h). A backend is a target's table of
 * operations (harness_target_ops.h: one file per kind) and what every
 * target shares, which lives here: for a builtin target, a failed case is
 * a failed run (the case saved first); for an external one, the fused
 * model's screen, the deviation check, the bisection of a batch that broke
 * and the confirmation of a crash or a hang before it is a finding. */
#include "harness_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "harness_backend_cpu.h"
#include "harness_crash.h"
#include "harness_inputs.h"
#include "harness_target_ops.h"

struct harness_backend {
    harness_target_spec spec;
    const harness_target_ops *ops;
    harness_target_impl *impl;
    harness_pycall_result *results; /* one per case sent, for ops->run */
    const gm_case **picked;
    gm_outputs **into;
    size_t cap;
    bool has_identity;
    gm_target_record identity;
    char *crash_dir;
    char *unreliable_dir;
    harness_backend_unreliable unreliable;
    bool no_confirm; /* harness_backend_set_confirm(b, false) */
    uint64_t answered; /* calls the target returned from or raised in */
    harness_run_legacy *legacy; /* harness_backend_set_legacy; not owned */
};

void harness_target_results_returned(harness_pycall_result *results, size_t n) {
    for (size_t i = 0; i < n; i++) {
        results[i] = (harness_pycall_result){.status = HARNESS_PYCALL_RETURNED};
    }
}

/* Which file runs `spec`: through a hub any target, else by its kind. */
static const harness_target_ops *harness_backend_ops_for(const harness_target_spec *spec) {
    static const harness_target_ops *const by_kind[HARNESS_BACKEND_COUNT] = {
        [HARNESS_BACKEND_CPU] = &harness_target_cpu_ops,
        [HARNESS_BACKEND_CUDA] = &harness_target_gpu_ops,
        [HARNESS_BACKEND_CUDA_GRAPH] = &harness_target_gpu_ops,
        [HARNESS_BACKEND_CUDA_RAW] = &harness_target_gpu_ops,
        [HARNESS_BACKEND_LIB] = &harness_target_lib_ops,
        [HARNESS_BACKEND_PYTHON] = &harness_target_python_ops,
    };
    return spec->hub[0] ? &harness_target_hub_ops : by_kind[spec->builtin];
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

/* The reproducer's "target": the spec, its kind, and what the target says
 * it is (module, file, sha256...). */
static bool harness_backend_record_identity(harness_backend *b, gm_target_record *seen,
                                            gm_error *err) {
    char spec[HARNESS_TARGET_PATH_MAX + 200];
    harness_target_format(&b->spec, spec, sizeof spec);
    gm_target_record *t = &b->identity;
    *t = *seen; /* taken over */
    memset(seen, 0, sizeof *seen);
    free(t->spec);
    free(t->kind);
    t->spec = harness_backend_strdup(spec);
    t->kind = harness_backend_strdup(b->spec.kind == HARNESS_TARGET_LIB ? "lib" : "python");
    b->has_identity = true;
    return (t->spec != NULL && t->kind != NULL) ||
           gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the target");
}

bool harness_backend_open_target(const harness_target_spec *spec, harness_backend **out,
                                 gm_error *err) {
    harness_backend *b = calloc(1, sizeof *b);
    if (b == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a backend");
    }
    b->spec = *spec;
    b->ops = harness_backend_ops_for(spec);
    gm_target_record seen = {0};
    bool has_seen = false;
    bool ok = b->ops->open(spec, &b->impl, &seen, &has_seen, err);
    b->ops = ok ? b->ops : NULL; /* nothing to close */
    ok = ok && (!has_seen || !harness_target_is_external(spec) ||
                harness_backend_record_identity(b, &seen, err));
    gm_target_record_free(&seen);
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
    if (b->ops != NULL) {
        b->ops->close(b->impl);
    }
    free(b->results);
    free(b->picked);
    free(b->into);
    gm_target_record_free(&b->identity);
    free(b->crash_dir);
    free(b->unreliable_dir);
    free(b);
}

void harness_backend_set_crash_dir(harness_backend *b, const char *dir) {
    free(b->crash_dir);
    b->crash_dir = harness_backend_strdup(dir);
}

void harness_backend_set_confirm(harness_backend *b, bool confirm) { b->no_confirm = !confirm; }

void harness_backend_set_legacy(harness_backend *b, harness_run_legacy *legacy) {
    b->legacy = legacy;
}

harness_run_legacy *harness_backend_legacy(const harness_backend *b) { return b->legacy; }

void harness_backend_set_unreliable_dir(harness_backend *b, const char *dir) {
    free(b->unreliable_dir);
    b->unreliable_dir = harness_backend_strdup(dir);
}

harness_backend_kind harness_backend_kind_of(const harness_backend *b) { return b->spec.builtin; }
const harness_target_spec *harness_backend_spec(const harness_backend *b) { return &b->spec; }

const gm_target_record *harness_backend_identity(const harness_backend *b) {
    return b->has_identity ? &b->identity : NULL;
}

harness_backend_restarts harness_backend_restart_counts(const harness_backend *b) {
    return b->ops->counts(b->impl).restarts;
}

harness_backend_jit harness_backend_jit_counts(const harness_backend *b) {
    return b->ops->counts(b->impl).jit;
}

bool harness_backend_sees_jit(const harness_backend *b) {
    return b->ops->counts(b->impl).sees_jit;
}

uint64_t harness_backend_answered(const harness_backend *b) { return b->answered; }

harness_backend_unreliable harness_backend_unreliable_counts(const harness_backend *b) {
    return b->unreliable;
}

/* ---- sending cases ----------------------------------------------------------- */

static bool harness_backend_room(harness_backend *b, size_t n, gm_error *err) {
    if (n <= b->cap) {
        return true;
    }
    harness_pycall_result *r = realloc(b->results, n * sizeof *r);
    b->results = r != NULL ? r : b->results;
    const gm_case **p = realloc(b->picked, n * sizeof *p);
    b->picked = p != NULL ? p : b->picked;
    gm_outputs **o = realloc(b->into, n * sizeof *o);
    b->into = o != NULL ? o : b->into;
    if (r == NULL || p == NULL || o == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    b->cap = n;
    return true;
}

/* The cases `sent` (indices into cases/outs; NULL: all n) on the target in
 * one batch, each call bounded by `limit_s` (0: the spec's timeout);
 * b->results[k] for the k-th. */
static bool harness_backend_send(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                                 const size_t *sent, size_t n, double limit_s, gm_error *err) {
    if (!harness_backend_room(b, n ? n : 1, err)) {
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = sent != NULL ? sent[k] : k;
        b->picked[k] = cases[i];
        b->into[k] = &outs[i];
    }
    if (!b->ops->run(b->impl, b->picked, b->into, n, limit_s, b->results, err)) {
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        b->answered += b->results[k].status <= HARNESS_PYCALL_RAISED ? 1 : 0;
    }
    return true;
}

/* Saves `c` under the crash folder with `what`; `note` says where (or why
 * not), "" when there is no crash folder. */
static void harness_backend_save_crash(const harness_backend *b, const gm_case *c,
                                       const char *what, char *note, size_t size) {
    note[0] = '\0';
    if (b->crash_dir == NULL) {
        return;
    }
    char path[1024];
    gm_error save_err = {0};
    if (harness_crash_save(b->crash_dir, c, what, path, sizeof path, &save_err)) {
        snprintf(note, size, "case saved to %s", path);
    } else {
        snprintf(note, size, "case NOT saved: %.1000s", save_err.msg);
    }
}

/* ---- builtin targets ------------------------------------------------------- */

/* A builtin backend's failure on a case is the failure of the run, the case
 * saved first; the next case starts a fresh worker. */
static bool harness_backend_builtin_batch(harness_backend *b, const gm_case *const *cases,
                                          gm_outputs *outs, size_t n, gm_error *err) {
    for (size_t i = 0; i < n; i++) {
        if (!gm_outputs_prepare(&outs[i], cases[i], err)) {
            return false;
        }
    }
    if (!harness_backend_send(b, cases, outs, NULL, n, 0, err)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const harness_pycall_result *res = &b->results[i];
        if (res->status == HARNESS_PYCALL_RETURNED) {
            continue;
        }
        char saved[1200], hub[HARNESS_TARGET_NAME_MAX + 32] = "";
        harness_backend_save_crash(b, cases[i], res->message, saved, sizeof saved);
        if (b->spec.hub[0]) {
            snprintf(hub, sizeof hub, " (target hub @%s)", b->spec.hub);
        }
        return gm_error_set(err, GM_ERR_DEVICE,
                            "backend %s: device error: %.1500s; %s; later runs go on, on a fresh "
                            "worker%s",
                            harness_target_backend_name(b->spec.builtin), res->message,
                            saved[0] ? saved : "case not saved (no crash folder)", hub);
    }
    return true;
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
    if (harness_inputs_is_report(out->error)) {
        return; /* a write into its inputs is the finding, whatever it returned */
    }
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

static const char *harness_backend_prefix(harness_pycall_status s) {
    return s == HARNESS_PYCALL_RAISED ? GM_TARGET_RAISED_PREFIX
           : s == HARNESS_PYCALL_HUNG ? GM_TARGET_HUNG_PREFIX
                                      : GM_TARGET_CRASHED_PREFIX;
}

/* What one case's result means for its fused outputs. */
static void harness_backend_judge_one(const gm_case *c, const gm_outputs *model, gm_outputs *out,
                                      const harness_pycall_result *res, const char *note) {
    if (res->status == HARNESS_PYCALL_RETURNED) {
        harness_backend_check_deviation(c, model, out);
    } else {
        gm_outputs_set_error(out, "%s%s%s%s%s", harness_backend_prefix(res->status), res->message,
                             note[0] ? " (" : "", note, note[0] ? ")" : "");
    }
}

/* Keeps an unreliable crash or hang: the case, what happened the first
 * time and on the re-run, in the unreliable folder. */
static void harness_backend_keep_unreliable(harness_backend *b, const gm_case *c,
                                            const harness_pycall_result *first,
                                            const harness_pycall_result *again) {
    if (first->status == HARNESS_PYCALL_HUNG) {
        b->unreliable.hung++;
    } else {
        b->unreliable.crashed++;
    }
    if (b->unreliable_dir == NULL) {
        return;
    }
    char spec[HARNESS_TARGET_PATH_MAX + 200], said[HARNESS_PYCALL_MESSAGE_MAX + 64], path[1024];
    harness_target_format(&b->spec, spec, sizeof spec);
    cJSON *o = cJSON_CreateObject();
    snprintf(said, sizeof said, "%s%s", harness_backend_prefix(first->status), first->message);
    cJSON_AddStringToObject(o, "first", said);
    snprintf(said, sizeof said, "%s%s",
             again->status == HARNESS_PYCALL_RETURNED ? "returned" : GM_TARGET_RAISED_PREFIX,
             again->status == HARNESS_PYCALL_RETURNED ? "" : again->message);
    cJSON_AddStringToObject(o, "again", said);
    cJSON_AddStringToObject(o, "target", spec);
    gm_error err = {0};
    if (!harness_crash_save_as(b->unreliable_dir, "unreliable", c, "unreliable", o, path,
                               sizeof path, &err)) {
        fprintf(stderr, "gmfuzz: an unreliable %s could not be kept: %s\n",
                first->status == HARNESS_PYCALL_HUNG ? "hang" : "crash", err.msg);
    }
}

/* The one case of a batch that crashed or hung, again alone on a fresh
 * worker (the failed one is gone), the case saved first. Where gmfuzz cannot
 * see the target's compiles, the re-run has the compile limit: a first call
 * that was only slow to compile is then no finding. What happens again is
 * the finding; what does not is unreliable and the re-run is judged. */
static bool harness_backend_confirm(harness_backend *b, const gm_case *c, const gm_outputs *model,
                                    gm_outputs *out, gm_error *err) {
    harness_pycall_result first = b->results[0];
    char saved[1200];
    harness_backend_save_crash(b, c, first.message, saved, sizeof saved);
    gm_outputs_free(out);
    double limit = b->ops->counts(b->impl).sees_jit ? 0 : b->spec.compile_timeout_s;
    if (!gm_outputs_prepare(out, c, err) ||
        !harness_backend_send(b, &c, out, NULL, 1, limit, err)) {
        return false;
    }
    const harness_pycall_result *again = &b->results[0];
    if (again->status >= HARNESS_PYCALL_CRASHED) {
        char note[1200 + HARNESS_PYCALL_MESSAGE_MAX];
        snprintf(note, sizeof note, "confirmed: again on a fresh worker: %.1000s%s%s",
                 again->message, saved[0] ? "; " : "", saved);
        harness_backend_judge_one(c, model, out, &first, note);
        return true;
    }
    harness_backend_keep_unreliable(b, c, &first, again);
    harness_backend_judge_one(c, model, out, again, "");
    return true;
}

static bool harness_backend_external_batch(harness_backend *b, const gm_case *const *cases,
                                           gm_outputs *outs, size_t n, gm_error *err);

/* A batch that crashed or hung: which case did it? Each again, alone. When
 * none does, the batch's failure did not happen again: unreliable (kept
 * with the batch's first case). */
static bool harness_backend_bisect(harness_backend *b, const gm_case *const *cases,
                                   gm_outputs *outs, const size_t *sent, size_t n_sent,
                                   gm_error *err) {
    harness_pycall_result first = {0};
    for (size_t k = 0; k < n_sent && first.status < HARNESS_PYCALL_CRASHED; k++) {
        first = b->results[k];
    }
    harness_backend_unreliable before = b->unreliable;
    bool again = false;
    for (size_t k = 0; k < n_sent; k++) {
        size_t i = sent[k];
        if (!harness_backend_external_batch(b, &cases[i], &outs[i], 1, err)) {
            return false;
        }
        again = again || (outs[i].error != NULL &&
                          (strncmp(outs[i].error, GM_TARGET_CRASHED_PREFIX,
                                   strlen(GM_TARGET_CRASHED_PREFIX)) == 0 ||
                           strncmp(outs[i].error, GM_TARGET_HUNG_PREFIX,
                                   strlen(GM_TARGET_HUNG_PREFIX)) == 0));
    }
    bool counted = b->unreliable.crashed + b->unreliable.hung > before.crashed + before.hung;
    if (!again && !counted) {
        harness_pycall_result none = {.status = HARNESS_PYCALL_RETURNED};
        snprintf(first.message + strlen(first.message),
                 sizeof first.message - strlen(first.message),
                 " (a batch of %zu; no case of it alone did it again)", n_sent);
        harness_backend_keep_unreliable(b, cases[sent[0]], &first, &none);
    }
    return true;
}

/* The cases `sent`, which their fused models (models[i]) found safe, on the
 * target in one batch; outs[i] hold their prior contents. */
static bool harness_backend_external_modeled(harness_backend *b, const gm_case *const *cases,
                                             const gm_outputs *const *models, gm_outputs *outs,
                                             const size_t *sent, size_t n_sent, gm_error *err) {
    if (!harness_backend_send(b, cases, outs, sent, n_sent, 0, err)) {
        return false;
    }
    bool broke = false;
    for (size_t k = 0; k < n_sent; k++) {
        broke = broke || b->results[k].status >= HARNESS_PYCALL_CRASHED;
    }
    if (broke && n_sent > 1) {
        return harness_backend_bisect(b, cases, outs, sent, n_sent, err);
    }
    if (broke && !b->no_confirm) {
        return harness_backend_confirm(b, cases[sent[0]], models[sent[0]], &outs[sent[0]], err);
    }
    for (size_t k = 0; k < n_sent; k++) { /* a crash or a hang here is not confirmed */
        size_t i = sent[k];
        char saved[1200] = "";
        if (b->results[k].status >= HARNESS_PYCALL_CRASHED) {
            harness_backend_save_crash(b, cases[i], b->results[k].message, saved, sizeof saved);
        }
        harness_backend_judge_one(cases[i], models[i], &outs[i], &b->results[k], saved);
    }
    return true;
}

static bool harness_backend_external_batch(harness_backend *b, const gm_case *const *cases,
                                           gm_outputs *outs, size_t n, gm_error *err) {
    size_t *sent = calloc(n ? n : 1, sizeof *sent), n_sent = 0;
    gm_outputs *models = calloc(n ? n : 1, sizeof *models);
    const gm_outputs **model_of = calloc(n ? n : 1, sizeof *model_of);
    bool ok = sent != NULL && models != NULL && model_of != NULL;
    if (!ok) {
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
    bool ok = all != NULL || gm_error_set(err, GM_ERR_MEMORY,
                                          "out of memory for a batch of %zu cases", n);
    for (size_t i = 0; ok && i < n; i++) {
        all[i] = i;
        gm_outputs_free(&outs[i]);
        ok = gm_outputs_prepare(&outs[i], cases[i], err);
    }
    ok = ok && harness_backend_external_modeled(b, cases, models, outs, all, n, err);
    free(all);
    return ok;
}

bool harness_backend_run(harness_backend *b, const gm_case *c, gm_outputs *out, gm_error *err) {
    return harness_backend_run_batch(b, &c, out, 1, err);
}

bool harness_backend_run_batch(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                               size_t n, gm_error *err) {
    return harness_target_is_external(&b->spec)
               ? harness_backend_external_batch(b, cases, outs, n, err)
               : harness_backend_builtin_batch(b, cases, outs, n, err);
}

bool harness_backend_run_raw(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                             size_t n, double limit_s, harness_pycall_result *results,
                             gm_error *err) {
    if (!harness_backend_send(b, cases, outs, NULL, n, limit_s, err)) {
        return false;
    }
    memcpy(results, b->results, n * sizeof *results);
    return true;
}
