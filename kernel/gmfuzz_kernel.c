#include "gmfuzz_kernel.h"

#include <stddef.h>

#include "fused_cuda.h"

int gmfuzz_kernel_abi_version(void) { return GMFUZZ_KERNEL_ABI_VERSION; }

static int gmfuzz_kernel_check_sizes(const fused_params *a) {
    if (a->page_size < 1 || a->max_seq_pages < 0 || a->page_table_stride < 0 ||
        a->req_to_token_rows < 1 || a->req_to_token_stride < 1 || a->swa_mapping_len < 0 ||
        a->n_out < 0 || a->out_len < 0) {
        return GMFUZZ_KERNEL_ERANGE;
    }
    if (a->max_seq_pages > a->page_table_stride) {
        return GMFUZZ_KERNEL_EWIDTH;
    }
    return GMFUZZ_KERNEL_OK;
}

static int gmfuzz_kernel_check_buffers(const fused_params *a) {
    if (a->req_pool_indices == NULL || a->seq_lens == NULL || a->req_to_token == NULL ||
        a->cache_seqlens == NULL || a->cu_seqlens_k == NULL || a->page_table == NULL) {
        return GMFUZZ_KERNEL_ENULL;
    }
    /* The SWA outputs translate through the mapping. */
    if ((a->swa_page_table != NULL || a->swa_out_cache_loc != NULL) && a->swa_mapping == NULL) {
        return GMFUZZ_KERNEL_ENULL;
    }
    return GMFUZZ_KERNEL_OK;
}

static int gmfuzz_kernel_check_q_mode(const fused_params *a) {
    switch (a->q_mode) {
    case FUSED_Q_NONE: return GMFUZZ_KERNEL_OK;
    case FUSED_Q_CUMSUM:
        return a->cu_seqlens_q != NULL && a->qlens != NULL ? GMFUZZ_KERNEL_OK : GMFUZZ_KERNEL_EMODE;
    case FUSED_Q_STRIDED:
        return a->cu_seqlens_q != NULL ? GMFUZZ_KERNEL_OK : GMFUZZ_KERNEL_EMODE;
    }
    return GMFUZZ_KERNEL_EMODE;
}

int gmfuzz_kernel_launch(const fused_params *args, void *stream) {
    if (args == NULL) {
        return GMFUZZ_KERNEL_ENULL;
    }
    if (args->bs < 0) {
        return GMFUZZ_KERNEL_ERANGE;
    }
    if (args->bs == 0) {
        return GMFUZZ_KERNEL_OK; /* an empty batch launches nothing */
    }
    int status = gmfuzz_kernel_check_sizes(args);
    if (status == GMFUZZ_KERNEL_OK) {
        status = gmfuzz_kernel_check_buffers(args);
    }
    if (status == GMFUZZ_KERNEL_OK) {
        status = gmfuzz_kernel_check_q_mode(args);
    }
    if (status != GMFUZZ_KERNEL_OK) {
        return status;
    }
    return (int)fused_cuda_launch(args, 0, NULL, (cudaStream_t)stream);
}

const char *gmfuzz_kernel_status_string(int status) {
    switch (status) {
    case GMFUZZ_KERNEL_OK: return "ok";
    case GMFUZZ_KERNEL_ENULL: return "a required pointer is NULL";
    case GMFUZZ_KERNEL_ERANGE: return "a size or scalar is out of range";
    case GMFUZZ_KERNEL_EMODE: return "q_mode is unknown or its buffers are missing";
    case GMFUZZ_KERNEL_EWIDTH: return "max_seq_pages exceeds page_table_stride";
    default: break;
    }
    return status > 0 ? cudaGetErrorString((cudaError_t)status) : "unknown status";
}
