/* bench_kernel: the GPU benchmark of the production kernel (issue: "the
 * fused CUDA kernel as a production kernel"). For each shape (bs,
 * max_num_pages, page_size, swa) in draft_decode mode with an SWA write of
 * bs slots, it measures:
 *   host_launch_us   host time of one gmfuzz_kernel_launch call, no sync;
 *   graph_replay_us  GPU time per rebuild over >= 500 back-to-back replays
 *                    of a CUDA graph holding the launch (CUDA events);
 *   cold_replay_us   GPU time of one replay after a write that evicts L2
 *                    (what a server sees: the model ran in between);
 *   ncu_kernel_us    the kernel's own duration from Nsight Compute, when
 *                    asked for and ncu is on the PATH (else -1).
 */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_error.h"

typedef struct {
    int64_t bs, max_num_pages, page_size;
    bool swa;
} bench_kernel_shape;

typedef struct {
    bench_kernel_shape shape;
    double host_launch_us;
    double graph_replay_us;
    double cold_replay_us;    /* one replay after L2 was flushed */
    double ncu_kernel_us;
} bench_kernel_row;

#define BENCH_KERNEL_SHAPES 10
extern const bench_kernel_shape bench_kernel_shapes[BENCH_KERNEL_SHAPES];

/* What req_to_token holds past each row's live pages. The kernel reads
 * every column either way (it never takes a host max); what differs is how
 * many distinct lines those reads touch.
 *   RECYCLED  the slots of earlier requests, as in a server whose rows have
 *             been reused: one line per page, the worst case (default);
 *   FRESH     zeros, as in a pool no earlier request has used. */
typedef enum { BENCH_KERNEL_POOL_RECYCLED, BENCH_KERNEL_POOL_FRESH } bench_kernel_pool;

/* Measures shape `s` into `row` (ncu not included). */
bool bench_kernel_measure(const bench_kernel_shape *s, bench_kernel_pool pool,
                          bench_kernel_row *row, gm_error *err);

/* Only launches shape `s` `launches` times (what ncu profiles). */
bool bench_kernel_launch_only(const bench_kernel_shape *s, bench_kernel_pool pool, int launches,
                              gm_error *err);

#endif
