/* The CUDA backends of a build without nvcc: a worker started for one
 * refuses, saying why. */
#include "gm_backend_cuda.h"

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

bool gm_backend_cuda_run_block(gm_backend_cuda *cu, unsigned char *block,
                               const gm_layout_launch *launches, size_t n, char *errors,
                               size_t error_size, gm_error *err) {
    (void)cu;
    (void)block;
    (void)launches;
    (void)n;
    (void)errors;
    (void)error_size;
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: not built");
}

bool gm_backend_cuda_pin(gm_backend_cuda *cu, void *block, size_t size) {
    (void)cu;
    (void)block;
    (void)size;
    return false;
}

void gm_backend_cuda_unpin(gm_backend_cuda *cu, void *block) {
    (void)cu;
    (void)block;
}

gm_backend_cuda_times gm_backend_cuda_times_of(const gm_backend_cuda *cu) {
    (void)cu;
    return (gm_backend_cuda_times){0};
}
