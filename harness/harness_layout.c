#include "harness_layout.h"

#include <stddef.h>
#include <string.h>

#define FUSED_EXTENT_FN static inline
#include "fused_extent.h"

/* Each buffer's pointer in fused_params and its element size, in the
 * order of fused_buf (inputs, then outputs from FUSED_BUF_CACHE_SEQLENS). */
static const struct {
    size_t field;
    size_t size;
} harness_layout_bufs[FUSED_BUF_COUNT] = {
    [FUSED_BUF_REQ_POOL_INDICES] = {offsetof(fused_params, req_pool_indices), 8},
    [FUSED_BUF_SEQ_LENS] = {offsetof(fused_params, seq_lens), 8},
    [FUSED_BUF_REQ_TO_TOKEN] = {offsetof(fused_params, req_to_token), 4},
    [FUSED_BUF_SWA_MAPPING] = {offsetof(fused_params, swa_mapping), 8},
    [FUSED_BUF_OUT_CACHE_LOC] = {offsetof(fused_params, out_cache_loc), 8},
    [FUSED_BUF_QLENS] = {offsetof(fused_params, qlens), 4},
    [FUSED_BUF_CACHE_SEQLENS] = {offsetof(fused_params, cache_seqlens), 4},
    [FUSED_BUF_CU_SEQLENS_K] = {offsetof(fused_params, cu_seqlens_k), 4},
    [FUSED_BUF_CU_SEQLENS_Q] = {offsetof(fused_params, cu_seqlens_q), 4},
    [FUSED_BUF_PAGE_TABLE] = {offsetof(fused_params, page_table), 4},
    [FUSED_BUF_SWA_PAGE_TABLE] = {offsetof(fused_params, swa_page_table), 4},
    [FUSED_BUF_SWA_OUT_CACHE_LOC] = {offsetof(fused_params, swa_out_cache_loc), 8},
};

static uintptr_t harness_layout_get(const fused_params *p, int b) {
    void *v;
    memcpy(&v, (const char *)p + harness_layout_bufs[b].field, sizeof v);
    return (uintptr_t)v;
}

static void harness_layout_set(fused_params *p, int b, uintptr_t at) {
    void *v = (void *)at;
    memcpy((char *)p + harness_layout_bufs[b].field, &v, sizeof v);
}

/* Bytes of buffer b as its sizes say; SIZE_MAX when they do not fit. */
static size_t harness_layout_bytes(const fused_params *p, int b) {
    int64_t count = fused_extent_of(p, (fused_buf)b).count;
    if (count < 0 || (uint64_t)count > SIZE_MAX / 16) {
        return SIZE_MAX;
    }
    return (size_t)count * harness_layout_bufs[b].size;
}

size_t harness_layout_round(size_t bytes) {
    return (bytes + HARNESS_LAYOUT_ALIGN - 1) / HARNESS_LAYOUT_ALIGN * HARNESS_LAYOUT_ALIGN;
}

size_t harness_layout_need(const fused_params *host) {
    size_t need = HARNESS_LAYOUT_STATUS_BYTES;
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        need +=
            harness_layout_get(host, b) ? harness_layout_round(harness_layout_bytes(host, b)) : 0;
    }
    return need;
}

void harness_layout_place(const fused_params *host, unsigned char *block, size_t at, uintptr_t addr,
                          fused_params *placed, harness_layout_span *span) {
    *placed = *host;
    span->begin = at;
    span->outputs_at = at;
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        if (b == FUSED_BUF_CACHE_SEQLENS) {
            span->outputs_at = at;
        }
        uintptr_t src = harness_layout_get(host, b);
        if (src == 0) {
            continue;
        }
        size_t bytes = harness_layout_bytes(host, b);
        if (bytes > 0) {
            memcpy(block + at, (const void *)src, bytes);
        }
        harness_layout_set(placed, b, addr + at);
        at += harness_layout_round(bytes);
    }
    memset(block + at, 0, HARNESS_LAYOUT_STATUS_BYTES);
    span->status_at = at;
    span->end = at + HARNESS_LAYOUT_STATUS_BYTES;
}

void harness_layout_unpack(const fused_params *host, const fused_params *placed, uintptr_t addr,
                           const unsigned char *block) {
    for (int b = FUSED_BUF_CACHE_SEQLENS; b < FUSED_BUF_COUNT; b++) {
        uintptr_t dst = harness_layout_get(host, b), from = harness_layout_get(placed, b);
        size_t bytes = harness_layout_bytes(host, b);
        if (dst != 0 && from != 0 && bytes > 0) {
            memcpy((void *)dst, block + (from - addr), bytes);
        }
    }
}

bool harness_layout_check(const fused_params *placed, const harness_layout_span *span, size_t size,
                          const char **why) {
    *why = "the span";
    if (span->begin > span->outputs_at || span->outputs_at > span->status_at ||
        span->status_at > SIZE_MAX - HARNESS_LAYOUT_STATUS_BYTES ||
        span->end != span->status_at + HARNESS_LAYOUT_STATUS_BYTES || span->end > size ||
        span->begin == 0 || span->begin % HARNESS_LAYOUT_ALIGN != 0 || placed->bs < 0) {
        return false;
    }
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        uintptr_t at = harness_layout_get(placed, b);
        if (at == 0) {
            continue; /* absent: no buffer lies at offset 0 (span->begin > 0) */
        }
        size_t bytes = harness_layout_bytes(placed, b);
        size_t lo = b < FUSED_BUF_CACHE_SEQLENS ? span->begin : span->outputs_at;
        size_t hi = b < FUSED_BUF_CACHE_SEQLENS ? span->outputs_at : span->status_at;
        *why = fused_buf_name((fused_buf)b);
        if (bytes == SIZE_MAX || at < lo || at > hi || bytes > hi - at ||
            at % HARNESS_LAYOUT_ALIGN != 0) {
            return false;
        }
    }
    return true;
}

void harness_layout_rebase(fused_params *placed, uintptr_t base) {
    for (int b = 0; b < FUSED_BUF_COUNT; b++) {
        uintptr_t at = harness_layout_get(placed, b);
        if (at != 0) {
            harness_layout_set(placed, b, base + at);
        }
    }
}
