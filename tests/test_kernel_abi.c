/* The C ABI of libgmfuzz_kernel.so (kernel/gmfuzz_kernel.h).
 *
 *   test_kernel_abi args   argument validation: needs no GPU (every
 *                          rejected call returns before touching CUDA)
 *   test_kernel_abi gpu    launches through the ABI on generated cases and
 *                          compares with the CPU execution; 77 without GPU
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "fused_cpu.h"
#include "harness.h"
#include "harness_launch.h"
#include "gm_oracle.h"
#include "gm_test.h"
#include "gmfuzz_kernel.h"

/* Host pointers are fine here: invalid arguments are refused before use. */
static int32_t dummy32[4];
static int64_t dummy64[4];

static fused_params valid_args(void) {
    fused_params p;
    memset(&p, 0, sizeof p);
    p.req_pool_indices = dummy64;
    p.seq_lens = dummy64;
    p.req_to_token = dummy32;
    p.req_to_token_rows = 1;
    p.req_to_token_stride = 4;
    p.cache_seqlens = dummy32;
    p.cu_seqlens_k = dummy32;
    p.page_table = dummy32;
    p.page_table_stride = 2;
    p.bs = 1;
    p.max_seq_pages = 2;
    p.page_size = 2;
    return p;
}

static void test_rejects_bad_arguments(void) {
    CHECK_EQ_I64(gmfuzz_kernel_abi_version(), GMFUZZ_KERNEL_ABI_VERSION);
    CHECK_EQ_I64(gmfuzz_kernel_launch(NULL, NULL), GMFUZZ_KERNEL_ENULL);
    fused_params p = valid_args();
    p.bs = -1;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_ERANGE);
    p = valid_args();
    p.bs = 0; /* an empty batch is valid and launches nothing */
    p.page_table = NULL;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_OK);
    p = valid_args();
    p.page_table = NULL;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_ENULL);
    p = valid_args();
    p.page_size = 0;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_ERANGE);
    p = valid_args();
    p.max_seq_pages = 3; /* past the row width: would write into the next row */
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_EWIDTH);
    p = valid_args();
    p.q_mode = FUSED_Q_CUMSUM; /* needs cu_seqlens_q and qlens */
    p.cu_seqlens_q = dummy32;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_EMODE);
    p.q_mode = (fused_q_mode)7;
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_EMODE);
    p = valid_args();
    p.swa_page_table = dummy32; /* an SWA output without the mapping */
    CHECK_EQ_I64(gmfuzz_kernel_launch(&p, NULL), GMFUZZ_KERNEL_ENULL);
    CHECK_STR_CONTAINS(gmfuzz_kernel_status_string(GMFUZZ_KERNEL_EWIDTH), "max_seq_pages");
    CHECK_STR_CONTAINS(gmfuzz_kernel_status_string(GMFUZZ_KERNEL_OK), "ok");
}

/* Copies the launch's buffers to the device, launches through the ABI,
 * and copies the outputs back into `host`'s output buffers. */
static bool launch_on_device(fused_params *host) {
    void *dev[12] = {0};
    const void *src[12] = {host->req_pool_indices, host->seq_lens, host->req_to_token,
                           host->swa_mapping, host->out_cache_loc, host->qlens,
                           host->cache_seqlens, host->cu_seqlens_k, host->cu_seqlens_q,
                           host->page_table, host->swa_page_table, host->swa_out_cache_loc};
    size_t bs = (size_t)host->bs, cells = bs * (size_t)host->page_table_stride;
    size_t bytes[12] = {bs * 8, bs * 8, (size_t)(host->req_to_token_rows * host->req_to_token_stride) * 4,
                        (size_t)host->swa_mapping_len * 8, (size_t)host->n_out * 8, bs * 4, bs * 4,
                        (bs + 1) * 4, (bs + 1) * 4, cells * 4, cells * 4, (size_t)host->out_len * 8};
    bool ok = true;
    for (int k = 0; k < 12 && ok; k++) {
        ok = src[k] == NULL || (cudaMalloc(&dev[k], bytes[k] + 8) == cudaSuccess &&
                                cudaMemcpy(dev[k], src[k], bytes[k], cudaMemcpyHostToDevice) == cudaSuccess);
    }
    fused_params d = *host;
    d.req_pool_indices = dev[0], d.seq_lens = dev[1], d.req_to_token = dev[2];
    d.swa_mapping = dev[3], d.out_cache_loc = dev[4], d.qlens = dev[5];
    d.cache_seqlens = dev[6], d.cu_seqlens_k = dev[7], d.cu_seqlens_q = dev[8];
    d.page_table = dev[9], d.swa_page_table = dev[10], d.swa_out_cache_loc = dev[11];
    ok = ok && gmfuzz_kernel_launch(&d, NULL) == GMFUZZ_KERNEL_OK &&
         cudaDeviceSynchronize() == cudaSuccess;
    for (int k = 6; k < 12 && ok; k++) {
        ok = src[k] == NULL ||
             cudaMemcpy((void *)src[k], dev[k], bytes[k], cudaMemcpyDeviceToHost) == cudaSuccess;
    }
    for (int k = 0; k < 12; k++) {
        cudaFree(dev[k]);
    }
    return ok;
}

static void test_gpu_launch_matches_cpu(void) {
    harness_gen gen;
    harness_gen_seed(&gen, 99);
    /* Launches whose rows take two pages a thread whatever the block's
     * width (kernel/fused_cuda.cu, fused_cuda_pages_per_thread): the
     * production kernel's second entry must be among those compared. */
    int compared = 0, equal = 0, two_page = 0;
    for (int n = 0; n < 300; n++) {
        gm_case c;
        gm_case_init(&c);
        gm_error err = {0};
        gm_outputs on_cpu, on_gpu;
        gm_outputs_init(&on_cpu);
        gm_outputs_init(&on_gpu);
        CHECK(harness_gen_case(&gen, &c, &err));
        CHECK(gm_outputs_prepare(&on_cpu, &c, &err) && gm_outputs_prepare(&on_gpu, &c, &err));
        fused_params cpu_args, gpu_args;
        harness_launch_params(&c, &on_cpu, &cpu_args);
        harness_launch_params(&c, &on_gpu, &gpu_args);
        fused_oob oob;
        if (fused_cpu_run(&cpu_args, &oob)) { /* only in-bounds cases run unchecked */
            compared++;
            two_page += gpu_args.max_seq_pages >= 512;
            CHECK(launch_on_device(&gpu_args));
            gm_verdict v;
            gm_oracle_compare_buffers(&c, &on_cpu, &on_gpu, GM_COMPARE_STRICT, &v);
            equal += v.status == GM_STATUS_MATCH;
        }
        gm_outputs_free(&on_cpu);
        gm_outputs_free(&on_gpu);
        gm_case_free(&c);
    }
    fprintf(stderr, "ABI launches equal to the CPU: %d/%d (%d of 512 pages or more)\n", equal,
            compared, two_page);
    CHECK(compared > 150);
    CHECK(two_page >= 10);
    CHECK_EQ_I64(equal, compared);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "gpu") == 0) {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
            fprintf(stderr, "skipped: no CUDA device\n");
            return GM_TEST_SKIP;
        }
        GM_RUN(test_gpu_launch_matches_cpu);
    } else {
        GM_RUN(test_rejects_bad_arguments);
    }
    GM_TEST_END();
}
