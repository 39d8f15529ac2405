/* harness_target_python: a python: target, an entry point called in a
 * persistent Python worker (harness_pyworker.h; harness_target_ops.h): a
 * batch is one CALL_PLACED, its tensors in a block shared with the worker
 * (harness_pybatch.h). The worker says what it runs (HELLO) and when its
 * target compiles or loads a kernel (JIT messages), and leaves what its
 * target's input tensors hold in the block: a call that changed them is
 * a target_wrote_input (harness_inputs.h). */
#include "harness_target_ops.h"

#include <stdlib.h>

#include "harness_inputs.h"
#include "harness_pybatch.h"
#include "harness_pycall.h"

typedef struct {
    harness_pyworker *worker;
    harness_pybatch *batch;
    harness_backend_jit jit; /* summed over every call */
} harness_target_python;

static harness_target_python *harness_target_python_of(const harness_target_impl *t) {
    return (harness_target_python *)t;
}

static void harness_target_python_close(harness_target_impl *t) {
    harness_target_python *p = harness_target_python_of(t);
    if (p == NULL) {
        return;
    }
    harness_pyworker_stop(p->worker);
    harness_pybatch_free(p->batch);
    free(p);
}

static bool harness_target_python_open(const harness_target_spec *spec, harness_target_impl **out,
                                       gm_target_record *seen, bool *has_seen, gm_error *err) {
    harness_target_python *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory opening a python target");
    }
    harness_pyworker_config cfg = {
        .role = HARNESS_PYWORKER_FUSED,
        .module = spec->path,
        .function = spec->function,
        .device_cpu = spec->device_cpu,
        .timeout_s = spec->timeout_s,
        .compile_timeout_s = spec->compile_timeout_s,
        .start_timeout_s = spec->start_timeout_s,
    };
    if (!harness_pybatch_new(&p->batch, err) || !harness_pyworker_start(&cfg, &p->worker, err) ||
        !gm_target_record_copy(seen, harness_pyworker_identity(p->worker))) {
        if (err->code == GM_ERR_NONE) {
            gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the python target");
        }
        harness_target_python_close((harness_target_impl *)p);
        return false;
    }
    *has_seen = true;
    *out = (harness_target_impl *)p;
    return true;
}

static bool harness_target_python_run(harness_target_impl *t, const gm_case *const *cases,
                                      gm_outputs *const *outs, size_t n, double limit_s,
                                      harness_pycall_result *results, gm_error *err) {
    harness_target_python *p = harness_target_python_of(t);
    harness_pybatch_clear(p->batch);
    for (size_t i = 0; i < n; i++) {
        harness_pycall_add_fused(p->batch, cases[i], outs[i]);
    }
    if (!harness_pyworker_call(p->worker, p->batch, results, limit_s, err)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char what[HARNESS_INPUTS_WHAT_MAX];
        if (results[i].status == HARNESS_PYCALL_RETURNED &&
            harness_pybatch_inputs_changed(p->batch, i, what, sizeof what)) {
            harness_inputs_report(outs[i], what);
        }
        p->jit.compiles += results[i].compiles;
        p->jit.loads += results[i].loads;
        p->jit.seconds += results[i].jit_s;
    }
    return true;
}

static harness_target_counts harness_target_python_counts(const harness_target_impl *t) {
    const harness_target_python *p = harness_target_python_of(t);
    return (harness_target_counts){
        .restarts = {.crashed = harness_pyworker_restarts(p->worker, HARNESS_PYCALL_CRASHED),
                     .hung = harness_pyworker_restarts(p->worker, HARNESS_PYCALL_HUNG)},
        .jit = p->jit,
        .sees_jit = harness_pyworker_sees_jit(p->worker),
    };
}

const harness_target_ops harness_target_python_ops = {
    .name = "python",
    .open = harness_target_python_open,
    .run = harness_target_python_run,
    .counts = harness_target_python_counts,
    .close = harness_target_python_close,
};
