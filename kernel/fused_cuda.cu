#include "fused_cuda.h"

#include <climits>
#include <cstddef>

#define FUSED_EXTENT_FN static __host__ __device__ __forceinline__
#include "fused_extent.h"

/* Rows of the scan that each thread of the scan block adds per chunk, and
 * each lane of a one-warp scan at most. */
#define FUSED_CUDA_SCAN_ITEMS 4

/* Rows of a batch that one warp scans alone (FUSED_CUDA_SCAN_ITEMS a lane). */
#define FUSED_CUDA_WARP_ROWS (32 * FUSED_CUDA_SCAN_ITEMS)

/* Threads per block of the production kernel on a batch of at most
 * FUSED_CUDA_WARP_ROWS rows, whose scan is one warp's and needs no block
 * of FUSED_CUDA_THREADS: with blocks of 128 threads, (8, 128, 64) and
 * (64, 128, 64) took 0.01-0.03 of Triton's time less, warm
 * (docs/KERNEL_ABI.md, seventh run). A larger batch keeps
 * FUSED_CUDA_THREADS: with 128, its block-wide scan walked twice the
 * chunks, and (1024, 64, 16) took 10 % longer warm. */
#define FUSED_CUDA_SMALL_BATCH_THREADS 128

/* Blocks per SM the kernel is compiled for: 8 x 256 threads fill an SM,
 * so a whole rebuild of the benchmark's largest shape is one wave. */
#define FUSED_CUDA_MIN_BLOCKS 8

/* How the programs are laid out over the grid (fused_cuda_grid.cuh); 24
 * bytes, the narrowest types that hold them (fused_cuda_launch checks the
 * grid against INT_MAX blocks first). */
struct fused_cuda_shape {
    uint32_t swa_out_blocks; /* blocks holding SWA-out programs */
    uint32_t blocks_per_row; /* > 1 for wide page tables */
    uint32_t rows_per_block; /* > 1 for narrow page tables */
    uint32_t row_shift;      /* log2 of the threads per row, 5..log2(a block's threads) */
    /* ceil(2^64 / blocks_per_row) where blocks_per_row > 1: a row block
     * finds its row with a multiply-high by it, not a 32-bit division
     * (fused_cuda_row_block) */
    uint64_t row_reciprocal;
};

/* fused_params as the kernels receive it: the same fields, ordered by when
 * a program first needs them, behind the shape. A kernel reads its scalars
 * from the constant bank, and every 64-byte line of it that a thread meets
 * for the first time is a miss it waits on, in order: the ABI's order puts
 * a row program's first values in five lines, this one in two before the
 * pool index's load (0.1 us of the 2 to 2.6 us that a launch of bs 1 to 64
 * takes, docs/KERNEL_ABI.md). From c[0x0][0x210] on sm_90, the shape and
 * the row's twelve values reach 0x287: the third line holds seqlen_offset,
 * which only a row's cache_seqlens writer reads (bs > 1,024), and
 * swa_mapping, which a row reads after its token has arrived; moving
 * swa_mapping into the second line moved no cell across 0.95 (eleventh
 * run). The semantics see it under fused_params' name (fused_program.h is
 * compiled with `fused_params` meaning this type, below), so they are
 * written once. */
struct fused_cuda_params {
    /* after the 24-byte shape, the row program's path: its first loads,
     * its stores, the first thread's cache_seqlens */
    const int64_t *req_pool_indices;
    const int32_t *req_to_token;
    int32_t *page_table;
    int64_t bs;
    int64_t req_to_token_stride;
    int64_t page_size;
    int64_t max_seq_pages;
    int64_t page_table_stride;
    int32_t *swa_page_table;
    const int64_t *seq_lens;
    int32_t *cache_seqlens;
    int64_t seqlen_offset;
    /* the SWA slots, the scan's outputs and q mode, the SWA-out programs,
     * the checked variant's bounds */
    const int64_t *swa_mapping;
    int32_t *cu_seqlens_k;
    fused_q_mode q_mode;
    int32_t *cu_seqlens_q;
    const int32_t *qlens;
    int64_t q_stride;
    const int64_t *out_cache_loc;
    int64_t n_out;
    int64_t *swa_out_cache_loc;
    int64_t out_len;
    int64_t swa_mapping_len;
    int64_t req_to_token_rows;
};

/* The arguments of both kernels but the checked one's bounds and status:
 * one parameter, so that its layout is this struct's. */
struct fused_cuda_args {
    fused_cuda_shape shape;
    fused_cuda_params p;
};

static_assert(sizeof(fused_cuda_params) == sizeof(fused_params),
              "fused_cuda_params holds every field of fused_params, once");
static_assert(offsetof(fused_cuda_args, p.swa_mapping) == 120,
              "the row program's values fill the first 120 bytes");

namespace {

struct fused_cuda_ctx {
    const fused_cuda_params *p;
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

/* Slots of swa_out_cache_loc a block of `threads` writes: one a thread in
 * the production kernel (its two dependent loads are one chain a thread;
 * with a program's FUSED_SWA_OUT_BLOCK slots a block, each thread ran two
 * chains in a row, longer than a row program's); the checked kernel keeps
 * the programs' grouping. */
static __host__ __device__ __forceinline__ int64_t fused_cuda_swa_out_width(bool production,
                                                                           int64_t threads) {
    return production ? threads : FUSED_SWA_OUT_BLOCK;
}

/* ceil(2^64 / d), d >= 2. Writing it r = (2^64 + e) / d with 0 <= e < d,
 * hi64(n * r) = floor(n / d + n * e / (d * 2^64)), and the second term is
 * below n / 2^64, so below 1 / d where n * d < 2^64: the multiply-high is
 * n / d exactly for every 32-bit n and d. */
static __host__ __forceinline__ uint64_t fused_cuda_reciprocal(uint64_t d) {
    return UINT64_MAX / d + 1;
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
#define fused_params fused_cuda_params
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef fused_params
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
#define fused_params fused_cuda_params
#include "fused_program.h"
#include "fused_cuda_grid.cuh"
#undef fused_params
#undef FUSED_FN
#undef FUSED_READ
#undef FUSED_WRITE
#undef FUSED_WRITE_CELL
#undef FUSED_CUDA_STOPPED
#undef FUSED_CUDA_READS_FIRST
#undef FUSED_CUDA_BOUNDS
#undef FUSED_CUDA_EXTENTS
}  // namespace fused_checked

/* The kernels' copy of the launch's arguments (fused_cuda_params). */
static fused_cuda_params fused_cuda_params_of(const fused_params *a) {
    fused_cuda_params p;
    p.req_pool_indices = a->req_pool_indices;
    p.req_to_token = a->req_to_token;
    p.page_table = a->page_table;
    p.bs = a->bs;
    p.req_to_token_stride = a->req_to_token_stride;
    p.page_size = a->page_size;
    p.max_seq_pages = a->max_seq_pages;
    p.page_table_stride = a->page_table_stride;
    p.swa_page_table = a->swa_page_table;
    p.swa_mapping = a->swa_mapping;
    p.seq_lens = a->seq_lens;
    p.cache_seqlens = a->cache_seqlens;
    p.seqlen_offset = a->seqlen_offset;
    p.cu_seqlens_k = a->cu_seqlens_k;
    p.q_mode = a->q_mode;
    p.cu_seqlens_q = a->cu_seqlens_q;
    p.qlens = a->qlens;
    p.q_stride = a->q_stride;
    p.out_cache_loc = a->out_cache_loc;
    p.n_out = a->n_out;
    p.swa_out_cache_loc = a->swa_out_cache_loc;
    p.out_len = a->out_len;
    p.swa_mapping_len = a->swa_mapping_len;
    p.req_to_token_rows = a->req_to_token_rows;
    return p;
}

/* Threads per block of a launch: FUSED_CUDA_THREADS for the checked kernel
 * and for a batch too large for one warp's scan (the checked kernel's
 * grouping and the block-wide scan are written for it), else
 * FUSED_CUDA_SMALL_BATCH_THREADS. */
static uint32_t fused_cuda_block_threads(const fused_cuda_params *p, bool checked) {
    return !checked && p->bs <= FUSED_CUDA_WARP_ROWS ? FUSED_CUDA_SMALL_BATCH_THREADS
                                                     : FUSED_CUDA_THREADS;
}

/* Pages a thread of a row block takes: 2 in the production kernel where a
 * row has at least two blocks' worth, so that each thread has two pages'
 * chains of loads in flight (the row-work floor's best layout at
 * (256, 1024, 64), where it took 0.01-0.02 of Triton's time less than one
 * page a thread, cold; docs/KERNEL_ABI.md, tenth run); else 1. */
static int fused_cuda_pages_per_thread(const fused_cuda_params *p, bool checked,
                                       uint32_t block_threads) {
    return !checked && p->max_seq_pages >= 2 * (int64_t)block_threads ? 2 : 1;
}

/* A warp or more per row: the smallest power of two that covers the row's
 * pages, so narrow page tables share a block; past one block's threads, as
 * many blocks as it takes to give every page a thread (`per_thread` pages
 * a thread, fused_cuda_pages_per_thread).
 *
 * The checked kernel gives threads only to the pages that can be in bounds
 * (up to the real row width) and one past them: its row loops stride over
 * the rest and stop at the first out-of-bounds access, so the outputs are
 * the same, but a fuzzer input with max_seq_pages near 2^31 and a narrow
 * table no longer schedules millions of blocks (20 ms to seconds a case,
 * which held every other lane of a hub back).
 *
 * Returns the number of blocks of the grid (INT64 arithmetic: the caller
 * refuses more than INT_MAX before the shape's 32-bit fields are used). */
static int64_t fused_cuda_shape_of(const fused_cuda_params *p, bool checked,
                                   uint32_t block_threads, int per_thread,
                                   fused_cuda_shape *shape) {
    int64_t pages = p->max_seq_pages;
    if (checked && p->page_table_stride >= 0 && pages > p->page_table_stride + 1) {
        pages = p->page_table_stride + 1;
    }
    uint32_t threads = 32, shift = 5;
    while (threads < block_threads && threads < pages) {
        threads *= 2;
        shift++;
    }
    const int64_t rows_per_block = block_threads / threads;
    const int64_t block_pages = (int64_t)block_threads * per_thread;
    const int64_t blocks_per_row = pages > block_pages ? (pages + block_pages - 1) / block_pages : 1;
    const int64_t row_blocks = (p->bs + rows_per_block - 1) / rows_per_block * blocks_per_row;
    const int64_t swa_out_blocks = fused_unchecked::fused_swa_out_groups(
        p, fused_cuda_swa_out_width(!checked, block_threads));
    shape->swa_out_blocks = (uint32_t)swa_out_blocks;
    shape->blocks_per_row = (uint32_t)blocks_per_row;
    shape->rows_per_block = (uint32_t)rows_per_block;
    shape->row_shift = shift;
    shape->row_reciprocal = blocks_per_row > 1 ? fused_cuda_reciprocal((uint64_t)blocks_per_row) : 0;
    if (blocks_per_row > INT_MAX || swa_out_blocks > INT_MAX) {
        return (int64_t)INT_MAX + 1;
    }
    return 1 + swa_out_blocks + row_blocks;
}

extern "C" cudaError_t fused_cuda_launch(const fused_params *p, int checked,
                                         fused_cuda_status *status, cudaStream_t stream) {
    if (p->bs <= 0) {
        return cudaSuccess; /* the launcher does nothing for an empty batch */
    }
    fused_cuda_args args;
    args.p = fused_cuda_params_of(p);
    const uint32_t threads = fused_cuda_block_threads(&args.p, checked != 0);
    const int per_thread = fused_cuda_pages_per_thread(&args.p, checked != 0, threads);
    const int64_t blocks =
        fused_cuda_shape_of(&args.p, checked != 0, threads, per_thread, &args.shape);
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
    void *kernel_args[] = {&args, checked ? (void *)&extents : (void *)&none, &status_arg};
    const void *kernel = checked           ? (const void *)fused_checked::fused_cuda_kernel<1>
                         : per_thread == 2 ? (const void *)fused_unchecked::fused_cuda_kernel<2>
                                           : (const void *)fused_unchecked::fused_cuda_kernel<1>;
    return cudaLaunchKernel(kernel, dim3((unsigned)blocks), dim3(threads),
                            kernel_args, 0, stream);
}
