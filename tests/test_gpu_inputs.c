/* Inputs are read-only on the builtin GPU backends too (issue 24 item 2).
 *
 *   test_gpu_inputs
 *
 * The correct kernel never writes an input, so the stray write is made
 * the way a fused bug makes one: the launch's cache_seqlens output is
 * pointed at seq_lens' device bytes (a write into a neighbouring buffer
 * looks the same). Both places the backends compare inputs are checked:
 * the arena of the eager and graph backends (after its download) and a
 * shared block (harness_backend_cuda_run_block, cuda and cuda-raw). A
 * launch left as it was reports nothing. Exits 77 (skipped) without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "fused_cuda.h"
#include "gm_test.h"
#include "harness_backend_cuda.h"
#include "harness_cuda_arena.h"
#include "harness_inputs.h"
#include "harness_layout.h"

#define ROWS 4
#define WIDTH 8

typedef struct {
    int64_t pool_rows[ROWS], seq_lens[ROWS];
    int32_t tokens[ROWS * WIDTH];
    int32_t cache_seqlens[ROWS], cu_k[ROWS + 1], page_table[ROWS * WIDTH];
    fused_params p;
} launch_buffers;

/* decode, 4 rows of seq_lens 1..4, page size 1: a plain launch. */
static void launch_make(launch_buffers *b) {
    memset(b, 0, sizeof *b);
    for (int i = 0; i < ROWS; i++) {
        b->pool_rows[i] = i;
        b->seq_lens[i] = i + 1;
    }
    for (int k = 0; k < ROWS * WIDTH; k++) {
        b->tokens[k] = k;
    }
    b->p = (fused_params){
        .req_pool_indices = b->pool_rows,
        .seq_lens = b->seq_lens,
        .req_to_token = b->tokens,
        .req_to_token_rows = ROWS,
        .req_to_token_stride = WIDTH,
        .cache_seqlens = b->cache_seqlens,
        .cu_seqlens_k = b->cu_k,
        .page_table = b->page_table,
        .page_table_stride = WIDTH,
        .bs = ROWS,
        .max_seq_pages = ROWS,
        .page_size = 1,
        .q_mode = FUSED_Q_NONE,
    };
}

/* One eager launch through the arena, cache_seqlens aimed at seq_lens
 * when `stray`; what the arena's input check says ("" for nothing). */
static void arena_run(bool stray, char *what, size_t size) {
    launch_buffers b;
    launch_make(&b);
    harness_cuda_arena a = {0};
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream) == cudaSuccess);
    cudaError_t e = harness_cuda_arena_reserve(&a, harness_cuda_arena_need(&b.p));
    fused_params dev = b.p;
    fused_cuda_status *status = NULL;
    harness_cuda_arena_upload(&a, &b.p, &dev, &status, stream, &e);
    if (stray) {
        dev.cache_seqlens = (int32_t *)(uintptr_t)dev.seq_lens;
    }
    if (e == cudaSuccess) {
        e = cudaMemsetAsync(status, 0, sizeof *status, stream);
    }
    if (e == cudaSuccess) {
        e = fused_cuda_launch(&dev, 1, status, stream);
    }
    harness_cuda_arena_download(&a, &dev, &b.p, NULL, stream, &e);
    if (e == cudaSuccess) {
        e = cudaStreamSynchronize(stream);
    }
    CHECK(e == cudaSuccess);
    harness_cuda_arena_unpack(&a);
    what[0] = '\0';
    if (!harness_cuda_arena_inputs_changed(&a, &b.p, what, size)) {
        what[0] = '\0';
    }
    harness_cuda_arena_release(&a);
    cudaStreamDestroy(stream);
}

static void test_arena_sees_a_stray_write(void) {
    char what[HARNESS_INPUTS_WHAT_MAX];
    arena_run(false, what, sizeof what);
    CHECK(what[0] == '\0');
    arena_run(true, what, sizeof what);
    fprintf(stderr, "arena: %s\n", what);
    /* cache_seqlens[1] (never 0) lands on seq_lens[0]'s high half; which
     * value it is depends on the threads' order (row 1 may read seq_lens[1]
     * after row 2 wrote into it), so only the element and what was sent
     * are asserted. */
    CHECK_STR_CONTAINS(what, "seq_lens[0]: sent 1, now ");
}

/* One launch in a shared block on backend `mode`; launch 0's error. */
static void block_run(harness_cuda_mode mode, bool stray, char *error, size_t size) {
    launch_buffers b;
    launch_make(&b);
    const size_t at = HARNESS_LAYOUT_ALIGN; /* offset 0 would read as NULL */
    size_t bytes = at + harness_layout_need(&b.p);
    unsigned char *block = calloc(1, bytes);
    CHECK(block != NULL);
    harness_layout_launch launch;
    harness_layout_place(&b.p, block, at, 0, &launch.params, &launch.span);
    if (stray) {
        launch.params.cache_seqlens = (int32_t *)(uintptr_t)launch.params.seq_lens;
    }
    harness_backend_cuda *cu = NULL;
    gm_error err = {0};
    CHECK(harness_backend_cuda_open(mode, &cu, &err));
    CHECK(harness_backend_cuda_run_block(cu, block, &launch, 1, error, size, &err));
    harness_backend_cuda_close(cu);
    free(block);
}

static void test_block_sees_a_stray_write(void) {
    const harness_cuda_mode modes[2] = {HARNESS_CUDA_CHECKED, HARNESS_CUDA_RAW};
    for (int m = 0; m < 2; m++) {
        char error[256];
        block_run(modes[m], false, error, sizeof error);
        CHECK(error[0] == '\0');
        block_run(modes[m], true, error, sizeof error);
        fprintf(stderr, "block, mode %d: %s\n", m, error);
        CHECK(harness_inputs_is_report(error));
        CHECK_STR_CONTAINS(error, "seq_lens[0]: sent 1, now ");
    }
}

int main(void) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "skipped: no CUDA device\n");
        return GM_TEST_SKIP;
    }
    GM_RUN(test_arena_sees_a_stray_write);
    GM_RUN(test_block_sees_a_stray_write);
    GM_TEST_END();
}
