/* The row-work floor of the metadata rebuild (bench/kernel_row_floor.py).
 *
 * Every complete rebuild writes, for every page p < max_seq_pages of every
 * row i, page_table[i][p] from the token req_to_token[req_pool_indices[i]]
 * [p * page_size] and, with an SWA page table, swa_page_table[i][p] from
 * that token's mapping slot: a chain of two (three) dependent loads and one
 * (two) stores per page, and nothing of it can be skipped. This kernel does
 * exactly that and nothing else (no scan, no SWA-out slots, no
 * cache_seqlens, no checks, powers of two only, non-negative tokens): as
 * plainly as CUDA allows, PER pages a thread, each page's reads issued
 * before any write. Its GPU time is a floor under every complete kernel on
 * the same inputs: where it is above 0.95 of a kernel's, no kernel can take
 * 0.95 of that kernel's time. */
#include <cstdint>

#include <cuda_runtime.h>

template <bool SWA, int PER>
__global__ void row_floor_kernel(const int64_t *__restrict__ pool_rows,
                                 const int32_t *__restrict__ tokens, int64_t stride,
                                 const int64_t *__restrict__ mapping, int32_t *page_table,
                                 int32_t *swa_page_table, int pages_log2, int page_log2,
                                 int64_t cells) {
    const int64_t first = (int64_t)blockIdx.x * blockDim.x * PER + threadIdx.x;
    int32_t tok[PER];
    int64_t slot[PER];
#pragma unroll
    for (int j = 0; j < PER; j++) {
        const int64_t cell = first + (int64_t)j * blockDim.x;
        if (cell < cells) {
            const int64_t row = cell >> pages_log2, page = cell - (row << pages_log2);
            tok[j] = __ldg(tokens + __ldg(pool_rows + row) * stride + (page << page_log2));
        }
    }
#pragma unroll
    for (int j = 0; j < PER && SWA; j++) {
        const int64_t cell = first + (int64_t)j * blockDim.x;
        if (cell < cells) {
            slot[j] = __ldg(mapping + tok[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < PER; j++) {
        const int64_t cell = first + (int64_t)j * blockDim.x;
        if (cell < cells) {
            page_table[cell] = tok[j] >> page_log2;
            if (SWA) {
                swa_page_table[cell] = (int32_t)(slot[j] >> page_log2);
            }
        }
    }
}

template <bool SWA, int PER>
static cudaError_t row_floor_launch_per(int threads, const int64_t *pool_rows,
                                        const int32_t *tokens, int64_t stride,
                                        const int64_t *mapping, int32_t *page_table,
                                        int32_t *swa_page_table, int pages_log2, int page_log2,
                                        int64_t cells) {
    const int64_t per_block = (int64_t)threads * PER;
    const unsigned blocks = (unsigned)((cells + per_block - 1) / per_block);
    row_floor_kernel<SWA, PER><<<blocks, threads>>>(pool_rows, tokens, stride, mapping,
                                                    page_table, swa_page_table, pages_log2,
                                                    page_log2, cells);
    return cudaGetLastError();
}

/* One launch on the default stream: `per` (1, 2 or 4) pages a thread,
 * `threads` a block, the SWA page table when `swa` (mapping then given).
 * Returns the CUDA error, or cudaErrorInvalidValue for another `per`. */
extern "C" __attribute__((visibility("default"))) int gmfuzz_row_floor_launch(
    int per, int threads, int swa, const int64_t *pool_rows, const int32_t *tokens,
    int64_t stride, const int64_t *mapping, int32_t *page_table, int32_t *swa_page_table,
    int pages_log2, int page_log2, int64_t cells) {
#define ROW_FLOOR_CASE(P)                                                                   \
    case P:                                                                                 \
        return (int)(swa ? row_floor_launch_per<true, P>(threads, pool_rows, tokens, stride, \
                                                         mapping, page_table,               \
                                                         swa_page_table, pages_log2,        \
                                                         page_log2, cells)                  \
                         : row_floor_launch_per<false, P>(threads, pool_rows, tokens,        \
                                                          stride, mapping, page_table,      \
                                                          swa_page_table, pages_log2,       \
                                                          page_log2, cells))
    switch (per) {
        ROW_FLOOR_CASE(1);
        ROW_FLOOR_CASE(2);
        ROW_FLOOR_CASE(4);
    default: break;
    }
#undef ROW_FLOOR_CASE
    return (int)cudaErrorInvalidValue;
}
