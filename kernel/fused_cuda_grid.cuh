/* fused_cuda_grid: how the programs of one launch map onto CUDA blocks and
 * threads. Included by fused_cuda.cu inside each variant's namespace, right
 * after kernel/fused_program.h (no include guard, on purpose). Only the
 * scheduling lives here; every value comes from fused_program.h.
 *
 * The grid (fused_cuda_shape), in this order so that the serial scan starts
 * first and never waits behind a wave of row blocks:
 *   block 0         the scan program: a batch of at most
 *                   FUSED_CUDA_WARP_ROWS rows is one warp's, a run of
 *                   consecutive rows a lane, no barrier; a larger one is a
 *                   block-wide prefix sum over chunks of FUSED_CUDA_THREADS
 *                   * FUSED_CUDA_SCAN_ITEMS rows, carried from chunk to
 *                   chunk (wrapping uint32, so any grouping gives the CPU's
 *                   sums bit for bit). Where the batch is one chunk, the
 *                   production kernel's scan also writes cache_seqlens
 *                   (FUSED_CUDA_LENS_IN_SCAN);
 *   SWA-out blocks  the SWA-out programs' slots, fused_cuda_swa_out_width
 *                   a block: one slot a thread in the production kernel,
 *                   so that no thread waits for two chains of loads in a
 *                   row; a program's FUSED_SWA_OUT_BLOCK in the checked one;
 *   row blocks      row programs, `threads_per_row` threads each. A narrow
 *                   page table packs several rows into one block; a wide
 *                   one spreads a row over `blocks_per_row` blocks, PER
 *                   pages a thread (the kernel's template argument: 2 in
 *                   the production kernel where a row has two blocks'
 *                   worth of pages, else 1), so that every page's dependent
 *                   loads (token, then mapping) are in flight at once.
 *                   Unless the scan writes them, the first thread of a
 *                   row's first block writes cache_seqlens.
 *
 * A block has FUSED_CUDA_THREADS threads, but in the production kernel on
 * a batch of at most FUSED_CUDA_WARP_ROWS rows, FUSED_CUDA_SMALL_BATCH_THREADS
 * (fused_cuda_block_threads): the host lays the rows and the SWA-out slots
 * out for the launch's block, and the block-wide scan, the only code
 * written for FUSED_CUDA_THREADS, runs only on a larger batch.
 *
 * Which program writes an element is scheduling only: every value is
 * computed by the same function of fused_program.h whichever writes it.
 *
 * FUSED_CUDA_READS_FIRST, defined by the includer, says whether a thread
 * issues an element's reads before its writes (the production kernel) or
 * keeps the host execution's order of accesses (the checked kernel, whose
 * report of the first out-of-bounds access must match the host's).
 *
 * FUSED_CUDA_STOPPED(ctx), defined by the includer, says whether the long
 * loops should stop (the checked variant, after an out-of-bounds access);
 * FUSED_CUDA_BOUNDS is the type of the kernel's bounds argument (the
 * checked variant: the buffers' allocations, fused_extents) and
 * FUSED_CUDA_EXTENTS(bounds) the table the accesses are checked against.
 */

/* Whether the scan block writes cache_seqlens (its rows' lengths are the
 * terms it reads anyway): in the production kernel, for a batch of one
 * chunk, where it takes the length's load and store off the row programs'
 * first warps; a larger batch's serial scan would only grow longer. The
 * checked kernel keeps the host execution's order of accesses. */
#define FUSED_CUDA_LENS_IN_SCAN(bs)                                                        \
    (FUSED_CUDA_READS_FIRST && (bs) <= (int64_t)FUSED_CUDA_THREADS * FUSED_CUDA_SCAN_ITEMS)

/* fused_row_page's work on pages first, first + step, ... of a row: PER
 * of them, those below `pages` (the caller's loop has checked `first`).
 * The production kernel issues every token's read, then every mapping
 * slot's (each as soon as its token is there), then the stores, so that
 * the PER chains of dependent loads are in flight at once; the checked
 * kernel (PER 1) keeps the host execution's order. */
template <int PER>
static __device__ __forceinline__ void fused_cuda_row_pages(FUSED_CTX *ctx, int64_t row,
                                                            int64_t pool_row, int64_t first,
                                                            int64_t step, int64_t pages) {
    if (!FUSED_CUDA_READS_FIRST) {
        fused_row_page(ctx, row, pool_row, first);
        return;
    }
    const fused_params *p = FUSED_P(ctx);
    /* A token is an int32 element of req_to_token, read widened: narrowed
     * back exactly, it takes one register, and two pages' chains fit the
     * kernel's 32 registers unspilled (as int64, ptxas spilled 4 bytes for
     * sm_90). */
    bool in[PER];
    int32_t tok[PER];
    int64_t swa[PER];
#pragma unroll
    for (int j = 0; j < PER; j++) {
        const int64_t page = first + j * step;
        in[j] = (j == 0 || page < pages) && !fused_row_page_skipped(p, page);
        if (in[j]) {
            tok[j] = (int32_t)fused_row_token(ctx, pool_row, page);
        }
    }
    if (p->swa_page_table == 0) {
#pragma unroll
        for (int j = 0; j < PER; j++) {
            if (in[j]) {
                fused_row_store_page(ctx, row, first + j * step, tok[j]);
            }
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < PER; j++) {
        if (in[j]) {
            swa[j] = fused_row_slot(ctx, tok[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < PER; j++) {
        if (in[j]) {
            fused_row_store_page(ctx, row, first + j * step, tok[j]);
            fused_row_store_swa(ctx, row, first + j * step, swa[j]);
        }
    }
}

template <int PER>
static __device__ void fused_cuda_row_block(FUSED_CTX *ctx, const fused_cuda_shape *shape,
                                            int64_t block) {
    /* 32-bit arithmetic (the grid has at most INT_MAX blocks), shifts
     * (threads_per_row is a power of two) and a multiply-high for the
     * division by blocks_per_row (fused_cuda_reciprocal): a 64-bit division
     * here sat on every row's path before its first load, and a 32-bit one
     * is still a dozen instructions. */
    const uint32_t b = (uint32_t)block, per_row = (uint32_t)shape->blocks_per_row;
    const uint32_t group = per_row == 1 ? b : (uint32_t)__umul64hi(b, shape->row_reciprocal);
    const int64_t part = (int64_t)(b - group * per_row);
    const int slot = (int)(threadIdx.x >> shape->row_shift);
    const uint32_t threads_per_row = 1u << shape->row_shift;
    const int lane = (int)(threadIdx.x & (threads_per_row - 1));
    const int64_t row = (int64_t)group * shape->rows_per_block + slot;
    if (row >= FUSED_P(ctx)->bs) {
        return;
    }
    /* Every thread reads its row's pool index itself (one broadcast load
     * per warp): no barrier and no shared memory between that load and the
     * pages' dependent ones. One thread of the row writes its length: it
     * issues its two reads first, both in flight at once, then the write
     * (fused_row_begin's order would wait for the length before reading
     * the pool index, a fourth round trip on the longest chain). */
    int64_t pool_row;
    if (part == 0 && lane == 0 && !FUSED_CUDA_READS_FIRST) {
        pool_row = fused_row_begin(ctx, row);
    } else if (part == 0 && lane == 0 && !FUSED_CUDA_LENS_IN_SCAN(FUSED_P(ctx)->bs)) {
        const int64_t seq = fused_row_seq_len(ctx, row);
        pool_row = fused_row_pool_index(ctx, row);
        fused_row_store_len(ctx, row, seq);
    } else {
        pool_row = fused_row_pool_index(ctx, row);
    }
    const int64_t pages = FUSED_P(ctx)->max_seq_pages;
    const int64_t span = (int64_t)threads_per_row * PER;
    const int64_t stride = span * shape->blocks_per_row;
    for (int64_t page = part * span + lane; page < pages && !FUSED_CUDA_STOPPED(ctx);
         page += stride) {
        fused_cuda_row_pages<PER>(ctx, row, pool_row, page, threads_per_row, pages);
    }
}

/* Inclusive scan of `v` across the 32 lanes of a warp (wrapping). */
static __device__ __forceinline__ uint32_t fused_cuda_warp_scan(uint32_t v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        uint32_t up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) {
            v += up;
        }
    }
    return v;
}

/* Exclusive block-wide scan of one value per thread (k and q sums at once);
 * returns through *k and *q the sum of all earlier threads' values, and
 * through *total_k, *total_q the block's totals. */
static __device__ __forceinline__ void fused_cuda_block_scan(uint32_t *k, uint32_t *q,
                                                             uint32_t *total_k,
                                                             uint32_t *total_q) {
    __shared__ uint32_t warp_k[FUSED_CUDA_THREADS / 32], warp_q[FUSED_CUDA_THREADS / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int warps = FUSED_CUDA_THREADS / 32;
    uint32_t in_k = fused_cuda_warp_scan(*k, lane), in_q = fused_cuda_warp_scan(*q, lane);
    if (lane == 31) {
        warp_k[warp] = in_k;
        warp_q[warp] = in_q;
    }
    __syncthreads();
    if (warp == 0) {
        uint32_t wk = fused_cuda_warp_scan(lane < warps ? warp_k[lane] : 0u, lane);
        uint32_t wq = fused_cuda_warp_scan(lane < warps ? warp_q[lane] : 0u, lane);
        if (lane < warps) {
            warp_k[lane] = wk;
            warp_q[lane] = wq;
        }
    }
    __syncthreads();
    const uint32_t before_k = warp > 0 ? warp_k[warp - 1] : 0u;
    const uint32_t before_q = warp > 0 ? warp_q[warp - 1] : 0u;
    *k = before_k + in_k - *k;
    *q = before_q + in_q - *q;
    *total_k = warp_k[warps - 1];
    *total_q = warp_q[warps - 1];
    __syncthreads(); /* the shared totals are reused by the next chunk */
}

/* Scan row k: its sums, and its length where the scan writes them. */
static __device__ __forceinline__ void fused_cuda_scan_row(FUSED_CTX *ctx, int64_t k,
                                                           uint32_t k_sum, uint32_t q_sum) {
    fused_scan_store(ctx, k, k_sum, q_sum);
    if (FUSED_CUDA_LENS_IN_SCAN(FUSED_P(ctx)->bs)) {
        fused_row_store_len(ctx, k, fused_row_seq_len(ctx, k));
    }
}

/* A batch of at most FUSED_CUDA_WARP_ROWS rows: one warp, a run of
 * consecutive rows a lane, no barrier (bs 33 to 128 took three of them in
 * the block-wide scan). */
static __device__ void fused_cuda_scan_warp(FUSED_CTX *ctx) {
    const int64_t bs = FUSED_P(ctx)->bs;
    const int lane = threadIdx.x;
    const int items = (int)((bs + 31) >> 5);
    const int64_t first = (int64_t)lane * items;
    uint32_t term_k[FUSED_CUDA_SCAN_ITEMS], term_q[FUSED_CUDA_SCAN_ITEMS];
    uint32_t own_k = 0, own_q = 0;
#pragma unroll
    for (int j = 0; j < FUSED_CUDA_SCAN_ITEMS; j++) {
        const bool in = j < items && first + j < bs;
        term_k[j] = in ? fused_scan_k_term(ctx, first + j) : 0u;
        term_q[j] = in ? fused_scan_q_term(ctx, first + j) : 0u;
        own_k += term_k[j];
        own_q += term_q[j];
    }
    uint32_t k = fused_cuda_warp_scan(own_k, lane) - own_k;
    uint32_t q = fused_cuda_warp_scan(own_q, lane) - own_q;
#pragma unroll
    for (int j = 0; j < FUSED_CUDA_SCAN_ITEMS; j++) {
        k += term_k[j];
        q += term_q[j];
        if (j < items && first + j < bs) {
            fused_cuda_scan_row(ctx, first + j, k, q);
        }
    }
}

static __device__ void fused_cuda_scan_block(FUSED_CTX *ctx) {
    const int64_t bs = FUSED_P(ctx)->bs;
    if (bs <= FUSED_CUDA_WARP_ROWS) {
        if (threadIdx.x < 32) {
            fused_cuda_scan_warp(ctx);
        }
        return;
    }
    /* A batch this large is always launched in blocks of FUSED_CUDA_THREADS. */
    const int64_t chunk = (int64_t)FUSED_CUDA_THREADS * FUSED_CUDA_SCAN_ITEMS;
    uint32_t carry_k = 0, carry_q = 0;
    /* Every thread runs every chunk, so the barriers inside are uniform. */
    for (int64_t base = 0; base < bs; base += chunk) {
        const int64_t first = base + (int64_t)threadIdx.x * FUSED_CUDA_SCAN_ITEMS;
        uint32_t term_k[FUSED_CUDA_SCAN_ITEMS], term_q[FUSED_CUDA_SCAN_ITEMS];
        uint32_t own_k = 0, own_q = 0;
#pragma unroll
        for (int j = 0; j < FUSED_CUDA_SCAN_ITEMS; j++) {
            const bool in = first + j < bs;
            term_k[j] = in ? fused_scan_k_term(ctx, first + j) : 0u;
            term_q[j] = in ? fused_scan_q_term(ctx, first + j) : 0u;
            own_k += term_k[j];
            own_q += term_q[j];
        }
        uint32_t sum_k = own_k, sum_q = own_q, total_k, total_q;
        fused_cuda_block_scan(&sum_k, &sum_q, &total_k, &total_q);
        sum_k += carry_k;
        sum_q += carry_q;
#pragma unroll
        for (int j = 0; j < FUSED_CUDA_SCAN_ITEMS; j++) {
            sum_k += term_k[j];
            sum_q += term_q[j];
            if (first + j < bs) {
                fused_cuda_scan_row(ctx, first + j, sum_k, sum_q);
            }
        }
        carry_k += total_k;
        carry_q += total_q;
    }
}

static __device__ void fused_cuda_swa_out_block(FUSED_CTX *ctx, int64_t block) {
    const int64_t width = fused_cuda_swa_out_width(FUSED_CUDA_READS_FIRST, blockDim.x);
    const int64_t begin = block * width;
    int64_t end = begin + width;
    if (end > FUSED_P(ctx)->out_len) {
        end = FUSED_P(ctx)->out_len;
    }
    for (int64_t t = begin + threadIdx.x; t < end && !FUSED_CUDA_STOPPED(ctx); t += blockDim.x) {
        fused_swa_out_slot(ctx, t);
    }
}

/* PER: pages a thread of a row block takes (fused_cuda_pages_per_thread);
 * one entry each, so that a launch of one page a thread runs none of the
 * two-page code (the eighth run's build with both layouts behind a flag
 * in one entry was 0.03-0.10 of Triton's time slower at launches it did
 * not change, docs/KERNEL_ABI.md). */
template <int PER>
__global__ void __launch_bounds__(FUSED_CUDA_THREADS, FUSED_CUDA_MIN_BLOCKS)
    fused_cuda_kernel(const __grid_constant__ fused_cuda_args args,
                      const __grid_constant__ FUSED_CUDA_BOUNDS bounds,
                      fused_cuda_status *status) {
    FUSED_CTX ctx = {&args.p, FUSED_CUDA_EXTENTS(bounds), status};
    const int64_t b = blockIdx.x;
    /* The row blocks, most of the grid, are told apart with one test. */
    if (b > args.shape.swa_out_blocks) {
        fused_cuda_row_block<PER>(&ctx, &args.shape, b - 1 - args.shape.swa_out_blocks);
    } else if (b == 0) {
        fused_cuda_scan_block(&ctx);
    } else {
        fused_cuda_swa_out_block(&ctx, b - 1);
    }
}
