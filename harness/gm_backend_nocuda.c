/* The CUDA backends of a build without nvcc: a worker started for one
 * refuses, saying why. */
#include "gm_backend_impl.h"

bool gm_backend_cuda_open(gm_cuda_mode mode, gm_backend_cuda **out, gm_error *err) {
    (void)mode;
    *out = NULL;
    return gm_error_set(err, GM_ERR_DEVICE,
                        "backend cuda: this gmfuzz was built without CUDA (no nvcc at configure time)");
}

void gm_backend_cuda_close(gm_backend_cuda *cu) { (void)cu; }

bool gm_backend_cuda_run(gm_backend_cuda *cu, const gm_case *c, gm_outputs *out, gm_error *err) {
    (void)cu;
    (void)c;
    (void)out;
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: not built");
}
