/* harness_target_cpu: the builtin semantics on the host, in this process
 * (harness_target_ops.h). Every access is checked; an out-of-bounds one is
 * the outputs' error, never performed. It never fails. */
#include "harness_target_ops.h"

#include "harness_backend_cpu.h"

static bool harness_target_cpu_open(const harness_target_spec *spec, harness_target_impl **out,
                                    gm_target_record *seen, bool *has_seen, gm_error *err) {
    (void)spec, (void)seen, (void)err;
    *has_seen = false;
    *out = NULL; /* no state */
    return true;
}

static bool harness_target_cpu_run(harness_target_impl *t, const gm_case *const *cases,
                                   gm_outputs *const *outs, size_t n, double limit_s,
                                   harness_pycall_result *results, gm_error *err) {
    (void)t, (void)limit_s;
    harness_target_results_returned(results, n);
    for (size_t i = 0; i < n; i++) {
        if (!harness_backend_cpu_run(cases[i], outs[i], err)) {
            return false;
        }
    }
    return true;
}

static harness_target_counts harness_target_cpu_counts(const harness_target_impl *t) {
    (void)t;
    return (harness_target_counts){0};
}

static void harness_target_cpu_close(harness_target_impl *t) { (void)t; }

const harness_target_ops harness_target_cpu_ops = {
    .name = "cpu",
    .open = harness_target_cpu_open,
    .run = harness_target_cpu_run,
    .counts = harness_target_cpu_counts,
    .close = harness_target_cpu_close,
};
