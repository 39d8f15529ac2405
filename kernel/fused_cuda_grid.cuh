/* fused_cuda_grid: how the programs of one launch map onto CUDA blocks and
 * threads. Included by fused_cuda.cu inside each variant's namespace, right
 * after kernel/fused_program.h (no include guard, on purpose).
 *
 * Block b of the grid is:
 *   b <  bs          row program b: thread 0 writes cache_seqlens and reads
 *                    the pool row, then the threads share the pages;
 *   b == bs          the scan program: a block-wide prefix sum in chunks of
 *                    blockDim.x rows, carried from chunk to chunk;
 *   b >  bs          SWA-out program b - bs - 1: FUSED_SWA_OUT_BLOCK slots.
 */

static __device__ void fused_cuda_row_program(FUSED_CTX *ctx, int64_t i) {
    __shared__ int64_t pool_row;
    if (threadIdx.x == 0) {
        pool_row = fused_row_begin(ctx, i);
    }
    __syncthreads();
    const int64_t pages = FUSED_P(ctx)->max_seq_pages;
    for (int64_t page = threadIdx.x; page < pages; page += blockDim.x) {
        fused_row_page(ctx, i, pool_row, page);
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

static __device__ void fused_cuda_scan_program(FUSED_CTX *ctx) {
    __shared__ uint32_t warp_k[32], warp_q[32];
    __shared__ uint32_t carry_k, carry_q;
    const int64_t bs = FUSED_P(ctx)->bs;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if (threadIdx.x == 0) {
        carry_k = 0;
        carry_q = 0;
    }
    __syncthreads();
    /* Every thread runs every chunk, so the barriers below are uniform. */
    for (int64_t base = 0; base < bs; base += blockDim.x) {
        const int64_t k = base + threadIdx.x;
        uint32_t sum_k = fused_cuda_warp_scan(k < bs ? fused_scan_k_term(ctx, k) : 0u, lane);
        uint32_t sum_q = fused_cuda_warp_scan(k < bs ? fused_scan_q_term(ctx, k) : 0u, lane);
        if (lane == 31) {
            warp_k[warp] = sum_k;
            warp_q[warp] = sum_q;
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
        sum_k += carry_k + (warp > 0 ? warp_k[warp - 1] : 0u);
        sum_q += carry_q + (warp > 0 ? warp_q[warp - 1] : 0u);
        if (k < bs) {
            fused_scan_store(ctx, k, sum_k, sum_q);
        }
        __syncthreads(); /* all have read carry and warp totals */
        if (threadIdx.x == blockDim.x - 1) {
            carry_k = sum_k; /* rows past bs added zeros: still the total */
            carry_q = sum_q;
        }
        __syncthreads();
    }
}

static __device__ void fused_cuda_swa_out_program(FUSED_CTX *ctx, int64_t program) {
    const int64_t begin = program * FUSED_SWA_OUT_BLOCK;
    int64_t end = begin + FUSED_SWA_OUT_BLOCK;
    if (end > FUSED_P(ctx)->out_len) {
        end = FUSED_P(ctx)->out_len;
    }
    for (int64_t t = begin + threadIdx.x; t < end; t += blockDim.x) {
        fused_swa_out_slot(ctx, t);
    }
}

__global__ void __launch_bounds__(FUSED_CUDA_THREADS)
    fused_cuda_kernel(const __grid_constant__ fused_params params, fused_cuda_status *status) {
    FUSED_CTX ctx = {&params, status};
    const int64_t b = blockIdx.x;
    if (b < params.bs) {
        fused_cuda_row_program(&ctx, b);
    } else if (b == params.bs) {
        fused_cuda_scan_program(&ctx);
    } else {
        fused_cuda_swa_out_program(&ctx, b - params.bs - 1);
    }
}
