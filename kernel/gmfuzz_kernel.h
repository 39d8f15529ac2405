/* gmfuzz_kernel: the C ABI of the fused metadata kernel (libgmfuzz_kernel.so).
 *
 * One call enqueues ONE launch on the given stream that rebuilds
 * cache_seqlens, cu_seqlens_k/q, the page table, the SWA page table and
 * the SWA write locations (docs/SEMANTICS.md, "The fused side"). The call
 * allocates nothing, never synchronises with the host, and is safe to
 * record into a CUDA graph. All pointers in `args` are DEVICE pointers.
 *
 * The arguments are a fused_params (kernel/fused_params.h), the same
 * struct the fuzzing harness drives; its fields mirror the keyword
 * arguments of sglang's update_trtllm_mha_graph_metadata. Lengths are in
 * elements; a buffer that does not exist is NULL.
 *
 * Return value: 0 when the launch was enqueued; a negative
 * GMFUZZ_KERNEL_E* code when an argument is invalid (nothing enqueued); a
 * positive cudaError_t value when CUDA refused the launch. The arguments
 * are validated on the host only (no device memory is read): contents
 * that break the preconditions in docs/SEMANTICS.md (a pool row outside
 * the pool, a token past the mapping, ...) are the caller's to avoid.
 */
#ifndef GMFUZZ_KERNEL_H
#define GMFUZZ_KERNEL_H

#include "fused_params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GMFUZZ_KERNEL_ABI_VERSION 1

/* The library exports these three functions and nothing else. */
#if defined(GMFUZZ_KERNEL_BUILD)
#define GMFUZZ_KERNEL_API __attribute__((visibility("default")))
#else
#define GMFUZZ_KERNEL_API
#endif

enum {
    GMFUZZ_KERNEL_OK = 0,
    GMFUZZ_KERNEL_ENULL = -1,   /* a required pointer is NULL */
    GMFUZZ_KERNEL_ERANGE = -2,  /* a size or scalar is out of range */
    GMFUZZ_KERNEL_EMODE = -3,   /* q_mode unknown, or its buffers missing */
    GMFUZZ_KERNEL_EWIDTH = -4,  /* max_seq_pages > page_table_stride: writes past a row */
};

/* GMFUZZ_KERNEL_ABI_VERSION of the loaded library. */
GMFUZZ_KERNEL_API int gmfuzz_kernel_abi_version(void);

/* Enqueues one rebuild on `stream` (a cudaStream_t; NULL: the legacy
 * default stream). */
GMFUZZ_KERNEL_API int gmfuzz_kernel_launch(const fused_params *args, void *stream);

/* A readable message for any return value of gmfuzz_kernel_launch. */
GMFUZZ_KERNEL_API const char *gmfuzz_kernel_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif
