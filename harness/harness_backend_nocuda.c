/* The CUDA backends of a build without nvcc: a worker started for one
 * refuses, saying why. */
#include "harness_backend_cuda.h"

bool harness_backend_cuda_open(harness_cuda_mode mode, harness_backend_cuda **out, gm_error *err) {
    (void)mode;
    *out = NULL;
    return gm_error_set(
        err, GM_ERR_DEVICE,
        "backend cuda: this gmfuzz was built without CUDA (no nvcc at configure time)");
}

void harness_backend_cuda_close(harness_backend_cuda *cu) { (void)cu; }

bool harness_backend_cuda_run(harness_backend_cuda *cu, const gm_case *c, gm_outputs *out,
                              gm_error *err) {
    (void)cu;
    (void)c;
    (void)out;
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: not built");
}

bool harness_backend_cuda_run_block(harness_backend_cuda *cu, unsigned char *block,
                                    const harness_layout_launch *launches, size_t n, char *errors,
                                    size_t error_size, gm_error *err) {
    (void)cu;
    (void)block;
    (void)launches;
    (void)n;
    (void)errors;
    (void)error_size;
    return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: not built");
}

bool harness_backend_cuda_pin(harness_backend_cuda *cu, void *block, size_t size) {
    (void)cu;
    (void)block;
    (void)size;
    return false;
}

void harness_backend_cuda_unpin(harness_backend_cuda *cu, void *block) {
    (void)cu;
    (void)block;
}

harness_backend_cuda_times harness_backend_cuda_times_of(const harness_backend_cuda *cu) {
    (void)cu;
    return (harness_backend_cuda_times){0};
}
