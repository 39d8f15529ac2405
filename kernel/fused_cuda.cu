#include "fused_cuda.h"

#include <climits>

#define FUSED_EXTENT_FN static __host__ __device__ __forceinline__
#include "fused_extent.h"

/* Rows of the scan that each thread of the scan block adds per chunk. */
#define FUSED_CUDA_SCAN_ITEMS 4

/* Blocks per SM the kernel is compiled for: 8 x 256 threads fill an SM,
 * so a whole rebuild of the benchmark's largest shape is one wave. */
#define FUSED_CUDA_MIN_BLOCKS 8

/* How the programs are laid out over the grid (fused_cuda_grid.cuh). */
struct fused_cuda_shape {
    int64_t row_blocks;      /* blocks holding row programs */
    int64_t swa_out_blocks;  /* blocks holding SWA-out programs */
    int32_t rows_per_block;  /* > 1 for narrow page tables */
    int32_t threads_per_row; /* a power of two, 32..FUSED_CUDA_THREADS */
    int32_t row_shift;       /* its log2 */
    int64_t blocks_per_row;  /* > 1 for wide page tables */
};

namespace {

struct fused_cuda_ctx {
    const fused_params *p;
    const fused_extents *extents; /* checked variant: the allocations, per launch */
    fused_cuda_status *status;    /* checked variant only */
};

/* Checked variant: whether an access may be performed; the first access
 * that may not claims the status record. The bound is the buffer's real
 * allocation (fused_extent.h), `len` only where smaller: never the
 * semantics' word alone. */
__device__ bool fused_cuda_refuse(fused_cuda_status *s, int buf, bool write, int64_t row,
                                  int64_t index, int64_t len) {
    if (atomicCAS(&s->claimed, 0u, 1u) == 0u) {
        s->buf = buf;
        s->write = write ? 1 : 0;
        s->row = row;
        s->index = index;
        s->len = len;
    }
    return false;
}

__device__ bool fused_cuda_allow(const fused_extents *x, fused_cuda_status *s, fused_buf buf,
                                 bool write, const void *ptr, int64_t index, int64_t len) {
    const fused_extent e = x->of[buf];
    bool have = ptr != 0 && ptr == e.base && e.count >= 0;
    int64_t bound = have ? (len < e.count ? len : e.count) : 0;
    if (have && index >= 0 && index < bound) {
        return true;
    }
    return fused_cuda_refuse(s, buf, write, -1, index, bound);
}

/* A cell: the row within the real rows, the column within the real
 * width, and the width passed equal to it (else the write would land in
 * the wrong cell, or past the end). */
__device__ bool fused_cuda_allow_cell(const fused_extents *x, fused_cuda_status *s,
                                      fused_buf buf, const void *ptr, int64_t row, int64_t col,
                                      int64_t width) {
    const fused_extent e = x->of[buf];
    bool have = ptr != 0 && ptr == e.base && e.count >= 0;
    if (!have || row < 0 || row >= e.rows) {
        return fused_cuda_refuse(s, buf, true, -1, row, have ? e.rows : 0);
    }
    if (width != e.width || col < 0 || col >= e.width) {
        return fused_cuda_refuse(s, buf, true, row, col, e.width);
    }
    return true;
}

template <typename T>
__host__ __device__ __forceinline__ T fused_cuda_load(const T *address) {
#ifdef __CUDA_ARCH__
    return __ldg(address);
#else
    return *address;
#endif
}

/* The production kernel's bounds argument: nothing (one byte of
 * parameter space, not the table's few hundred on every launch). */
struct fused_cuda_no_bounds {
    char none;
};

}  // namespace

#define FUSED_CTX fused_cuda_ctx
/* The shift of a power-of-two divisor: one instruction on the GPU, where
 * fused_program.h's portable loop would sit between a token's arrival and
 * its page id. The host side of __host__ __device__ code keeps the loop. */
#ifdef __CUDA_ARCH__
#define FUSED_LOG2_POW2(b) (__ffsll((long long)(b)) - 1)
#endif
#define FUSED_P(ctx) ((ctx)->p)

/* The production kernel: accesses as computed. Its functions are also
 * callable on the host (only pure arithmetic is used there). */
namespace fused_unchecked {
#define FUSED_FN static __host__ __device__ __forceinline__
/* Inputs are read-only for the whole launch: the non-coherent path. */
#define FUSED_READ(ctx, buf, ptr, i, len) ((int64_t)fused_cuda_load(&(ptr)[(i)]))
#define FUSED_WRITE(ctx, buf, ptr, i, len, v) ((ptr)[(i)] = (v))
#define FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)                          \
    ((ptr)[(row) * (width) + (col)] = (v))
#define FUSED_CUDA_STOPPED(ctx) false
#define FUSED_CUDA_READS_FIRST 1
#define FUSED_CUDA_BOUNDS fused_cuda_no_bounds
#define FUSED_CUDA_EXTENTS(bounds) ((const fused_extents *)nullptr)
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef FUSED_FN
#undef FUSED_READ
#undef FUSED_WRITE
#undef FUSED_WRITE_CELL
#undef FUSED_CUDA_STOPPED
#undef FUSED_CUDA_READS_FIRST
#undef FUSED_CUDA_BOUNDS
#undef FUSED_CUDA_EXTENTS
}  // namespace fused_unchecked

/* The fuzzing kernel: every access bounds-checked, out-of-bounds ones
 * skipped and recorded. */
namespace fused_checked {
#define FUSED_FN static __device__ __forceinline__
#define FUSED_READ(ctx, buf, ptr, i, len)                                                  \
    (fused_cuda_allow((ctx)->extents, (ctx)->status, (buf), false, (ptr), (i), (len))           \
         ? (int64_t)(ptr)[(i)]                                                             \
         : (int64_t)0)
#define FUSED_WRITE(ctx, buf, ptr, i, len, v)                                              \
    do {                                                                                   \
        if (fused_cuda_allow((ctx)->extents, (ctx)->status, (buf), true, (ptr), (i), (len))) {   \
            (ptr)[(i)] = (v);                                                              \
        }                                                                                  \
    } while (0)
#define FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)                          \
    do {                                                                                   \
        (void)(rows);                                                                      \
        if (fused_cuda_allow_cell((ctx)->extents, (ctx)->status, (buf), (ptr), (row), (col),     \
                                  (width))) {                                              \
            (ptr)[(row) * (width) + (col)] = (v);                                          \
        }                                                                                  \
    } while (0)
/* After the first out-of-bounds access the long loops stop, as the host
 * execution does: a case whose max_seq_pages is 2^31 with a narrow table
 * otherwise keeps the GPU busy for seconds. */
#define FUSED_CUDA_STOPPED(ctx) (*(volatile unsigned *)&(ctx)->status->claimed != 0u)
#define FUSED_CUDA_READS_FIRST 0
#define FUSED_CUDA_BOUNDS fused_extents
#define FUSED_CUDA_EXTENTS(bounds) (&(bounds))
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef FUSED_FN
#undef FUSED_READ
#undef FUSED_WRITE
#undef FUSED_WRITE_CELL
#undef FUSED_CUDA_STOPPED
#undef FUSED_CUDA_READS_FIRST
#undef FUSED_CUDA_BOUNDS
#undef FUSED_CUDA_EXTENTS
}  // namespace fused_checked

/* A warp or more per row: the smallest power of two that covers the row's
 * pages, so narrow page tables share a block; past one block's threads, as
 * many blocks as it takes to give every page its own thread.
 *
 * The checked kernel gives threads only to the pages that can be in bounds
 * (up to the real row width) and one past them: its row loops stride over
 * the rest and stop at the first out-of-bounds access, so the outputs are
 * the same, but a fuzzer input with max_seq_pages near 2^31 and a narrow
 * table no longer schedules millions of blocks (20 ms to seconds a case,
 * which held every other lane of a hub back). */
static fused_cuda_shape fused_cuda_shape_of(const fused_params *p, bool checked) {
    int64_t pages = p->max_seq_pages;
    if (checked && p->page_table_stride >= 0 && pages > p->page_table_stride + 1) {
        pages = p->page_table_stride + 1;
    }
    int32_t threads = 32, shift = 5;
    while (threads < FUSED_CUDA_THREADS && threads < pages) {
        threads *= 2;
        shift++;
    }
    fused_cuda_shape shape;
    shape.threads_per_row = threads;
    shape.row_shift = shift;
    shape.rows_per_block = FUSED_CUDA_THREADS / threads;
    shape.blocks_per_row =
        pages > FUSED_CUDA_THREADS ? (pages + FUSED_CUDA_THREADS - 1) / FUSED_CUDA_THREADS : 1;
    shape.row_blocks = (p->bs + shape.rows_per_block - 1) / shape.rows_per_block *
                       shape.blocks_per_row;
    shape.swa_out_blocks = fused_unchecked::fused_swa_out_programs(p);
    return shape;
}

extern "C" cudaError_t fused_cuda_launch(const fused_params *p, int checked,
                                         fused_cuda_status *status, cudaStream_t stream) {
    if (p->bs <= 0) {
        return cudaSuccess; /* the launcher does nothing for an empty batch */
    }
    const fused_cuda_shape shape = fused_cuda_shape_of(p, checked != 0);
    const int64_t blocks = 1 + shape.swa_out_blocks + shape.row_blocks;
    if (blocks > INT_MAX) {
        return cudaErrorInvalidConfiguration;
    }
    if (checked && status == nullptr) {
        return cudaErrorInvalidValue;
    }
    /* cudaLaunchKernel itself, not <<<>>> and cudaGetLastError: one call
     * into the runtime instead of three, on the path every decode step
     * takes. Arguments are passed by address, in the kernel's order. */
    fused_cuda_status *status_arg = checked ? status : nullptr;
    fused_extents extents;
    fused_cuda_no_bounds none = {0};
    if (checked) {
        fused_extents_of(p, &extents);
    }
    void *args[] = {const_cast<fused_params *>(p), const_cast<fused_cuda_shape *>(&shape),
                    checked ? (void *)&extents : (void *)&none, &status_arg};
    const void *kernel = checked ? (const void *)fused_checked::fused_cuda_kernel
                                 : (const void *)fused_unchecked::fused_cuda_kernel;
    return cudaLaunchKernel(kernel, dim3((unsigned)blocks), dim3(FUSED_CUDA_THREADS), args, 0,
                            stream);
}
