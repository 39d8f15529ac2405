#include "fused_cuda.h"

#include <climits>

namespace {

struct fused_cuda_ctx {
    const fused_params *p;
    fused_cuda_status *status; /* checked variant only */
};

/* Checked variant: whether an access may be performed; the first access
 * that may not claims the status record. */
__device__ bool fused_cuda_allow(fused_cuda_status *s, int buf, bool write, bool have,
                                 int64_t row, int64_t index, int64_t len) {
    if (have && index >= 0 && index < len) {
        return true;
    }
    if (atomicCAS(&s->claimed, 0u, 1u) == 0u) {
        s->buf = buf;
        s->write = write ? 1 : 0;
        s->row = row;
        s->index = index;
        s->len = have ? len : 0;
    }
    return false;
}

__device__ bool fused_cuda_allow_cell(fused_cuda_status *s, int buf, bool have, int64_t row,
                                      int64_t col, int64_t width, int64_t rows) {
    return fused_cuda_allow(s, buf, true, have, -1, row, rows) &&
           fused_cuda_allow(s, buf, true, true, row, col, width);
}

}  // namespace

#define FUSED_CTX fused_cuda_ctx
#define FUSED_P(ctx) ((ctx)->p)

/* The production kernel: accesses as computed. Its functions are also
 * callable on the host (only pure arithmetic is used there). */
namespace fused_unchecked {
#define FUSED_FN static __host__ __device__ __forceinline__
#define FUSED_READ(ctx, buf, ptr, i, len) ((int64_t)(ptr)[(i)])
#define FUSED_WRITE(ctx, buf, ptr, i, len, v) ((ptr)[(i)] = (v))
#define FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)                          \
    ((ptr)[(row) * (width) + (col)] = (v))
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef FUSED_FN
#undef FUSED_READ
#undef FUSED_WRITE
#undef FUSED_WRITE_CELL
}  // namespace fused_unchecked

/* The fuzzing kernel: every access bounds-checked, out-of-bounds ones
 * skipped and recorded. */
namespace fused_checked {
#define FUSED_FN static __device__ __forceinline__
#define FUSED_READ(ctx, buf, ptr, i, len)                                                  \
    (fused_cuda_allow((ctx)->status, (buf), false, (ptr) != 0, -1, (i), (len))             \
         ? (int64_t)(ptr)[(i)]                                                             \
         : (int64_t)0)
#define FUSED_WRITE(ctx, buf, ptr, i, len, v)                                              \
    do {                                                                                   \
        if (fused_cuda_allow((ctx)->status, (buf), true, (ptr) != 0, -1, (i), (len))) {    \
            (ptr)[(i)] = (v);                                                              \
        }                                                                                  \
    } while (0)
#define FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)                          \
    do {                                                                                   \
        if (fused_cuda_allow_cell((ctx)->status, (buf), (ptr) != 0, (row), (col), (width), \
                                  (rows))) {                                               \
            (ptr)[(row) * (width) + (col)] = (v);                                          \
        }                                                                                  \
    } while (0)
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef FUSED_FN
#undef FUSED_READ
#undef FUSED_WRITE
#undef FUSED_WRITE_CELL
}  // namespace fused_checked

extern "C" cudaError_t fused_cuda_launch(const fused_params *p, int checked,
                                         fused_cuda_status *status, cudaStream_t stream) {
    if (p->bs <= 0) {
        return cudaSuccess; /* the launcher does nothing for an empty batch */
    }
    const int64_t blocks = p->bs + 1 + fused_unchecked::fused_swa_out_programs(p);
    if (blocks > INT_MAX) {
        return cudaErrorInvalidConfiguration;
    }
    if (checked) {
        if (status == nullptr) {
            return cudaErrorInvalidValue;
        }
        fused_checked::fused_cuda_kernel<<<(unsigned)blocks, FUSED_CUDA_THREADS, 0, stream>>>(
            *p, status);
    } else {
        fused_unchecked::fused_cuda_kernel<<<(unsigned)blocks, FUSED_CUDA_THREADS, 0, stream>>>(
            *p, nullptr);
    }
    return cudaGetLastError();
}
