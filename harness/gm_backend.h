/* gm_backend: the seam between the harness and where the fused kernel runs.
 *
 *   cpu    kernel/fused_cpu.c: the semantics executed on the host, every
 *          access checked (always available);
 *   cuda        kernel/fused_cuda.cu: the checked CUDA variant, one launch
 *               per case (needs a build with nvcc and a GPU at run time);
 *   cuda-graph  the same launch recorded once per key (every shape and
 *               scalar the launch bakes in) into a CUDA graph over
 *               persistent device buffers; each case writes its inputs
 *               into those buffers and replays the graph, as a server does;
 *   cuda-raw    the production (unchecked) kernel: an out-of-bounds case
 *               really touches device memory. For testing the recovery
 *               from device faults, never for hostile inputs otherwise.
 *
 * Every backend takes a case, fills `out` with the buffers' prior contents
 * (gm_outputs_prepare) and lets the kernel rewrite them. An out-of-bounds
 * access is not a failure of the backend: it sets out->error to
 * "out_of_bounds: ..." and the run succeeds. A false return means the
 * backend itself failed (no GPU, CUDA error, out of memory).
 */
#ifndef GM_BACKEND_H
#define GM_BACKEND_H

#include <stdbool.h>

#include "fused_params.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

typedef enum {
    GM_BACKEND_CPU,
    GM_BACKEND_CUDA,
    GM_BACKEND_CUDA_GRAPH,
    GM_BACKEND_CUDA_RAW,
    GM_BACKEND_COUNT
} gm_backend_kind;

typedef struct gm_backend gm_backend;

const char *gm_backend_kind_name(gm_backend_kind kind);
bool gm_backend_kind_from_name(const char *name, gm_backend_kind *out);

/* Opens a backend; for cuda this fails with GM_ERR_DEVICE (and a message
 * saying why) when the build has no CUDA or the machine has no GPU. */
bool gm_backend_open(gm_backend_kind kind, gm_backend **out, gm_error *err);
void gm_backend_close(gm_backend *b);
gm_backend_kind gm_backend_kind_of(const gm_backend *b);

bool gm_backend_run(gm_backend *b, const gm_case *c, gm_outputs *out, gm_error *err);

/* Where a GPU backend saves the case that made the device fail (a CUDA
 * error, sticky ones included), before it resets the device and reports
 * the error; NULL (the default): not saved. The folder is created. */
void gm_backend_set_crash_dir(gm_backend *b, const char *dir);

/* The launch parameters for `c` over the buffers of `out` (host pointers). */
void gm_backend_params(const gm_case *c, gm_outputs *out, fused_params *p);

#endif
