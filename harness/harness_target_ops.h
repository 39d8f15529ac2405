/* harness_target_ops: one kind of target behind one table of operations.
 * Each kind has a file of its own (harness_target_<kind>.c), as honggfuzz
 * keeps one file per platform, and harness_backend.c, the seam, calls only
 * the table: it never asks which kind it runs. What every external target
 * shares (the fused model's screen, the deviation check, the bisection of a
 * batch that broke, the confirmation of a crash or a hang) stays in the
 * seam. Private to harness/.
 *
 *   cpu     the builtin semantics on the host (harness_target_cpu.c)
 *   gpu     a builtin CUDA backend in a worker process (harness_target_gpu.c)
 *   lib     a library of gmfuzz's C ABI in a worker process (harness_target_lib.c)
 *   python  a Python entry point in a persistent worker (harness_target_python.c)
 *   hub     any target, run by the campaign's target hub (harness_target_hub.c) */
#ifndef HARNESS_TARGET_OPS_H
#define HARNESS_TARGET_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "harness.h"
#include "harness_pyworker.h"

typedef struct harness_target_impl harness_target_impl;

/* What a target did so far. */
typedef struct {
    harness_backend_restarts restarts; /* its worker replaced, by cause */
    harness_backend_jit jit;           /* its JIT's compiles and loads */
    bool sees_jit;                     /* it reports its compiles and loads */
} harness_target_counts;

typedef struct {
    const char *name;
    /* Opens the target; `seen` gets what it says it runs (module, file,
     * sha256...) when it says anything (*has_seen). */
    bool (*open)(const harness_target_spec *spec, harness_target_impl **out,
                 gm_target_record *seen, bool *has_seen, gm_error *err);
    /* Runs n cases; *outs[i] hold their prior contents and receive the
     * target's writes when results[i] is RETURNED. `limit_s` > 0 bounds each
     * call of this batch instead of the spec's timeout. A target's failure
     * is a result (RAISED, CRASHED with what happened, HUNG); false (err
     * set) only when gmfuzz itself cannot go on. */
    bool (*run)(harness_target_impl *t, const gm_case *const *cases, gm_outputs *const *outs,
                size_t n, double limit_s, harness_pycall_result *results, gm_error *err);
    harness_target_counts (*counts)(const harness_target_impl *t);
    void (*close)(harness_target_impl *t);
} harness_target_ops;

extern const harness_target_ops harness_target_cpu_ops;
extern const harness_target_ops harness_target_gpu_ops;
extern const harness_target_ops harness_target_lib_ops;
extern const harness_target_ops harness_target_python_ops;
extern const harness_target_ops harness_target_hub_ops;

/* Fills results[0..n) as RETURNED with no message and no JIT. */
void harness_target_results_returned(harness_pycall_result *results, size_t n);

#endif
