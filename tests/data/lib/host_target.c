/* host_target: a lib: target (docs/TARGETS.md) that needs no GPU, for the
 * tests of the lib: path on a machine without one. It exports gmfuzz's C ABI
 * (kernel/gmfuzz_kernel.h) over gmfuzz's own fused semantics on the host
 * (kernel/fused_cpu.c), and the five CUDA runtime entry points the lib:
 * worker calls (harness_libtarget.c finds them in the library first), over
 * host memory: "device" pointers are host pointers.
 *
 * GMFUZZ_LIB_FAULT=NAME plants a fault, read at every launch (unset or
 * empty: correct):
 *   writes_seq_lens      after the right outputs, seq_lens[0] has its lowest bit flipped
 *   writes_req_to_token  after the right outputs, req_to_token[0][0] has it flipped */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fused_cpu.h"
#include "fused_params.h"

#define HOST_TARGET_API __attribute__((visibility("default")))

HOST_TARGET_API int gmfuzz_kernel_abi_version(void);
HOST_TARGET_API int gmfuzz_kernel_launch(const fused_params *args, void *stream);
HOST_TARGET_API const char *gmfuzz_kernel_status_string(int status);
HOST_TARGET_API int cudaMalloc(void **ptr, size_t size);
HOST_TARGET_API int cudaFree(void *ptr);
HOST_TARGET_API int cudaMemcpy(void *dst, const void *src, size_t size, int kind);
HOST_TARGET_API int cudaDeviceSynchronize(void);
HOST_TARGET_API const char *cudaGetErrorString(int error);

int gmfuzz_kernel_abi_version(void) { return 1; }

int gmfuzz_kernel_launch(const fused_params *args, void *stream) {
    (void)stream;
    fused_oob oob;
    if (!fused_cpu_run(args, &oob)) {
        return -2; /* gmfuzz never sends a case that goes out of bounds */
    }
    const char *fault = getenv("GMFUZZ_LIB_FAULT");
    fault = fault != NULL ? fault : "";
    if (strcmp(fault, "writes_seq_lens") == 0 && args->bs > 0) {
        ((int64_t *)(uintptr_t)args->seq_lens)[0] ^= 1; /* what a read-only input must not see */
    } else if (strcmp(fault, "writes_req_to_token") == 0 && args->req_to_token_rows > 0 &&
               args->req_to_token_stride > 0) {
        ((int32_t *)(uintptr_t)args->req_to_token)[0] ^= 1;
    }
    return 0;
}

const char *gmfuzz_kernel_status_string(int status) {
    return status == 0 ? "ok" : "an out-of-bounds case (never sent by gmfuzz)";
}

int cudaMalloc(void **ptr, size_t size) {
    *ptr = malloc(size ? size : 1);
    return *ptr == NULL ? 2 : 0; /* 2: cudaErrorMemoryAllocation */
}

int cudaFree(void *ptr) {
    free(ptr);
    return 0;
}

int cudaMemcpy(void *dst, const void *src, size_t size, int kind) {
    (void)kind;
    memmove(dst, src, size);
    return 0;
}

int cudaDeviceSynchronize(void) { return 0; }

const char *cudaGetErrorString(int error) { return error == 0 ? "no error" : "out of memory"; }
