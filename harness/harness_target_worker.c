#define _XOPEN_SOURCE 700 /* realpath */
/* harness_target_worker: the targets that run in a harness_worker process
 * (harness_worker.h; harness_target_ops.h), which owns the CUDA context and
 * whatever the target loads, never gmfuzz's own process:
 *
 *   gpu  a builtin CUDA backend (cuda, cuda-graph, cuda-raw);
 *   lib  a library of gmfuzz's C ABI (harness_libtarget.h); what it runs is
 *        its file and that file's sha256.
 *
 * A device error, the worker's death or no answer in time is the case's
 * result (CRASHED or HUNG, with what happened); the next case starts a
 * fresh worker. For a builtin backend the seam then saves the case and
 * fails the run; for a library it is a finding. */
#include "harness_target_ops.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gm_sha256.h"
#include "harness_worker.h"

static harness_worker *harness_target_worker_of(const harness_target_impl *t) {
    return (harness_worker *)t;
}

static bool harness_target_worker_gpu_open(const harness_target_spec *spec,
                                           harness_target_impl **out, gm_target_record *seen,
                                           bool *has_seen, gm_error *err) {
    static const harness_cuda_mode modes[HARNESS_BACKEND_COUNT] = {
        [HARNESS_BACKEND_CUDA] = HARNESS_CUDA_CHECKED,
        [HARNESS_BACKEND_CUDA_GRAPH] = HARNESS_CUDA_GRAPH,
        [HARNESS_BACKEND_CUDA_RAW] = HARNESS_CUDA_RAW,
    };
    (void)seen;
    *has_seen = false;
    harness_worker *w = NULL;
    if (!harness_worker_start(modes[spec->builtin], &w, err)) {
        return false;
    }
    *out = (harness_target_impl *)w;
    return true;
}

static char *harness_target_worker_strdup(const char *s) {
    char *d = malloc(strlen(s) + 1);
    if (d != NULL) {
        strcpy(d, s);
    }
    return d;
}

static bool harness_target_worker_lib_open(const harness_target_spec *spec,
                                           harness_target_impl **out, gm_target_record *seen,
                                           bool *has_seen, gm_error *err) {
    char real[PATH_MAX], digest[65];
    if (realpath(spec->path, real) == NULL) {
        return gm_error_set(err, GM_ERR_DEVICE, "lib target %s: %s", spec->path, strerror(errno));
    }
    harness_worker *w = NULL;
    if (!gm_sha256_file(real, digest, err) ||
        !harness_worker_start_lib(real, spec->timeout_s, &w, err)) {
        return false;
    }
    *out = (harness_target_impl *)w;
    seen->file = harness_target_worker_strdup(real);
    seen->sha256 = harness_target_worker_strdup(digest);
    *has_seen = true;
    return (seen->file != NULL && seen->sha256 != NULL) ||
           gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the lib target");
}

static bool harness_target_worker_run(harness_target_impl *t, const gm_case *const *cases,
                                      gm_outputs *const *outs, size_t n, double limit_s,
                                      harness_pycall_result *results, gm_error *err) {
    (void)err;
    harness_target_results_returned(results, n);
    for (size_t i = 0; i < n; i++) {
        harness_worker_status s = harness_worker_call(harness_target_worker_of(t), cases[i],
                                                      outs[i], limit_s, results[i].message,
                                                      sizeof results[i].message);
        results[i].status = s == HARNESS_WORKER_OK     ? HARNESS_PYCALL_RETURNED
                            : s == HARNESS_WORKER_HUNG ? HARNESS_PYCALL_HUNG
                                                       : HARNESS_PYCALL_CRASHED;
    }
    return true;
}

static harness_target_counts harness_target_worker_counts(const harness_target_impl *t) {
    const harness_worker *w = harness_target_worker_of(t);
    return (harness_target_counts){
        .restarts = {.crashed = harness_worker_restarts(w), .hung = harness_worker_hangs(w)}};
}

static void harness_target_worker_close(harness_target_impl *t) {
    harness_worker_stop(harness_target_worker_of(t));
}

const harness_target_ops harness_target_gpu_ops = {
    .name = "gpu",
    .open = harness_target_worker_gpu_open,
    .run = harness_target_worker_run,
    .counts = harness_target_worker_counts,
    .close = harness_target_worker_close,
};

const harness_target_ops harness_target_lib_ops = {
    .name = "lib",
    .open = harness_target_worker_lib_open,
    .run = harness_target_worker_run,
    .counts = harness_target_worker_counts,
    .close = harness_target_worker_close,
};
