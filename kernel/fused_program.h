/* fused_program: THE semantics of the fused metadata kernel (SPEC section 3),
 * written once in the common subset of C17 and CUDA C++.
 *
 * Both executions include this file: kernel/fused_cpu.c runs the programs
 * in order over the grid on the host, with every access checked;
 * kernel/fused_cuda.cu maps the same element functions onto CUDA threads.
 * Each function computes ONE element of the grid's work, so the two
 * executions can differ in scheduling only, never in values: the scan
 * combines with wrapping (associative) uint32 addition.
 *
 * The includer defines, before including (there is deliberately no include
 * guard: the CUDA file instantiates it twice, checked and unchecked):
 *   FUSED_FN                      qualifiers of the functions below
 *   FUSED_CTX                     the execution context type
 *   FUSED_P(ctx)                  its `const fused_params *`
 *   FUSED_READ(ctx, buf, ptr, i, len)
 *                                 the value of ptr[i]; a checked execution
 *                                 records an i outside [0, len) as an
 *                                 out-of-bounds access of `buf` and yields 0
 *   FUSED_WRITE(ctx, buf, ptr, i, len, v)
 *                                 ptr[i] = v, checked the same way
 *   FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)
 *                                 ptr[row * width + col] = v for a 2-D
 *                                 buffer; col outside [0, width) is out of
 *                                 bounds too (a write past the row)
 *
 * Integer division here is C's: it truncates toward zero, as the fused
 * kernel does (the legacy path floors; that difference is SPEC section 4's
 * negative_token_rounding, and it is kept, not fixed).
 *
 * Blocks marked PLANTED FAULT are compiled only in a tree configured with
 * -DGMFUZZ_FAULT=<name> (kernel/fused_faults.h, the fuzzer's self-test);
 * the default build compiles the #else branches, the kernel's semantics.
 */
#include <stdbool.h>
#include <stdint.h>

#include "fused_faults.h"
#include "fused_params.h"

/* The low 32 bits as a signed int32, without implementation-defined casts. */
FUSED_FN int32_t fused_low32(uint64_t v) {
    uint32_t u = (uint32_t)v;
    return u < 0x80000000u ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* a / b truncated toward zero, as C's `/` (b >= 1). Page sizes are
 * powers of two in practice, and a 64-bit division costs a GPU dozens of
 * instructions where a shift costs one: for b = 2^k, adding b - 1 to a
 * negative dividend turns the shift's floor into truncation. Same value as
 * `a / b` for every input. FUSED_LOG2_POW2(b), where the includer defines
 * it, is the shift in one instruction (CUDA: a count of trailing zeros). */
FUSED_FN int64_t fused_div_trunc(int64_t a, int64_t b) {
    if ((b & (b - 1)) != 0) {
        return a / b;
    }
#ifdef FUSED_LOG2_POW2
    const int shift = FUSED_LOG2_POW2(b);
#else
    int shift = 0;
    for (int64_t rest = b; rest > 1; rest >>= 1) {
        shift++;
    }
#endif
    return (a + (a < 0 ? b - 1 : 0)) >> shift;
}

/* Slots of swa_out_cache_loc that receive a translated location; the rest
 * of the buffer is the zero-padded tail. */
FUSED_FN int64_t fused_num_out_tokens(const fused_params *p) {
    if (p->swa_out_cache_loc == 0 || p->out_cache_loc == 0) {
        return 0;
    }
    return p->n_out < p->out_len ? p->n_out : p->out_len;
}

/* Groups of `width` slots that cover swa_out_cache_loc (none without it):
 * the programs below, or a GPU build's blocks of another width. */
FUSED_FN int64_t fused_swa_out_groups(const fused_params *p, int64_t width) {
    if (p->swa_out_cache_loc == 0 || p->out_len <= 0) {
        return 0;
    }
    return (p->out_len + width - 1) / width;
}

FUSED_FN int64_t fused_swa_out_programs(const fused_params *p) {
    return fused_swa_out_groups(p, FUSED_SWA_OUT_BLOCK);
}

/* Row program i: the request's row r of req_to_token. */
FUSED_FN int64_t fused_row_pool_index(FUSED_CTX *ctx, int64_t i) {
    const fused_params *p = FUSED_P(ctx);
    return FUSED_READ(ctx, FUSED_BUF_REQ_POOL_INDICES, p->req_pool_indices, i, p->bs);
}

/* Row program i, first part, its read: seq_lens[i]. */
FUSED_FN int64_t fused_row_seq_len(FUSED_CTX *ctx, int64_t i) {
    const fused_params *p = FUSED_P(ctx);
    return FUSED_READ(ctx, FUSED_BUF_SEQ_LENS, p->seq_lens, i, p->bs);
}

/* Row program i, first part, its write: cache_seqlens[i] from seq_lens[i]. */
FUSED_FN void fused_row_store_len(FUSED_CTX *ctx, int64_t i, int64_t seq) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_CACHE_SEQLENS_NO_OFFSET)
    /* PLANTED FAULT cache_seqlens_no_offset: the mode's offset is forgotten. */
    FUSED_WRITE(ctx, FUSED_BUF_CACHE_SEQLENS, p->cache_seqlens, i, p->bs,
                fused_low32((uint64_t)seq));
#elif defined(GMFUZZ_FAULT_CACHE_SEQLENS_CLAMPED)
    /* PLANTED FAULT cache_seqlens_clamped: a length that is not positive
     * is taken for an empty row. */
    int32_t len = fused_low32((uint64_t)seq + (uint64_t)p->seqlen_offset);
    FUSED_WRITE(ctx, FUSED_BUF_CACHE_SEQLENS, p->cache_seqlens, i, p->bs, len < 0 ? 0 : len);
#else
    FUSED_WRITE(ctx, FUSED_BUF_CACHE_SEQLENS, p->cache_seqlens, i, p->bs,
                fused_low32((uint64_t)seq + (uint64_t)p->seqlen_offset));
#endif
}

/* Row program i, first part: cache_seqlens[i]; returns the request's row r
 * of req_to_token. The host execution's order of accesses (the first
 * out-of-bounds one is the one reported); the CUDA grid issues the two
 * reads before the write instead (a GPU thread issues in order, so a write
 * between them would put a second round trip to memory on the row's path). */
FUSED_FN int64_t fused_row_begin(FUSED_CTX *ctx, int64_t i) {
    fused_row_store_len(ctx, i, fused_row_seq_len(ctx, i));
    return fused_row_pool_index(ctx, i);
}

/* Row program i, page `page` (< max_seq_pages), in four steps that
 * fused_row_page runs in the host execution's order of accesses (the
 * first out-of-bounds one is the one reported). The CUDA grid issues both
 * reads before the writes instead: a GPU thread issues in order, and a
 * write between the token's read and the mapping's would hold the second
 * round trip to memory back behind the page id's arithmetic. */

/* Whether the page is left out altogether (a planted fault only). */
FUSED_FN bool fused_row_page_skipped(const fused_params *p, int64_t page) {
#if defined(GMFUZZ_FAULT_PAGE_LOOP_DROPS_PARTIAL_CHUNK)
    /* PLANTED FAULT page_loop_drops_partial_chunk: the loop runs
     * max_seq_pages / CHUNK whole chunks, truncating. */
    return page >= p->max_seq_pages / FUSED_FAULT_PAGE_CHUNK * FUSED_FAULT_PAGE_CHUNK;
#else
    (void)p;
    (void)page;
    return false;
#endif
}

/* The token at the page's first position of request row r, addressed flat
 * (a read past the row's end reads the next row, as the kernel's pointer
 * arithmetic does). */
FUSED_FN int64_t fused_row_token(FUSED_CTX *ctx, int64_t r, int64_t page) {
    const fused_params *p = FUSED_P(ctx);
    /* int64 addressing that wraps instead of overflowing: the checked
     * execution then sees the wrapped index as out of bounds. */
#if defined(GMFUZZ_FAULT_REQ_TO_TOKEN_WRONG_STRIDE)
    /* PLANTED FAULT req_to_token_wrong_stride: the page table's row width
     * passed as req_to_token's stride. */
    int64_t flat = (int64_t)((uint64_t)r * (uint64_t)p->page_table_stride +
                             (uint64_t)page * (uint64_t)p->page_size);
#else
    int64_t flat = (int64_t)((uint64_t)r * (uint64_t)p->req_to_token_stride +
                             (uint64_t)page * (uint64_t)p->page_size);
#endif
    return FUSED_READ(ctx, FUSED_BUF_REQ_TO_TOKEN, p->req_to_token, flat,
                      p->req_to_token_rows * p->req_to_token_stride);
}

/* The token's SWA slot (the SWA page table is given). */
FUSED_FN int64_t fused_row_slot(FUSED_CTX *ctx, int64_t tok) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_TOK_GUARD_DROPPED)
    /* PLANTED FAULT tok_guard_dropped: the sentinel is looked up too. */
    return FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, tok, p->swa_mapping_len);
#elif defined(GMFUZZ_FAULT_TOK_GUARD_EQ_MINUS_ONE)
    /* PLANTED FAULT tok_guard_eq_minus_one: only -1 is taken for the
     * sentinel; a deeper negative slot is looked up. */
    return tok != -1 ? FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, tok,
                                  p->swa_mapping_len)
                     : -1;
#else
    /* A negative slot is the "no slot" sentinel: -1 without a lookup. */
    return tok >= 0 ? FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, tok,
                                 p->swa_mapping_len)
                    : -1;
#endif
}

/* page_table[i][page]: the token's page id. */
FUSED_FN void fused_row_store_page(FUSED_CTX *ctx, int64_t i, int64_t page, int64_t tok) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_NEGATIVE_TOK_PAGE_DROPPED)
    /* PLANTED FAULT negative_tok_page_dropped: where truncation and floor
     * disagree, the page is skipped. */
    if (tok < 0 && tok % p->page_size != 0) {
        return;
    }
#endif
    FUSED_WRITE_CELL(ctx, FUSED_BUF_PAGE_TABLE, p->page_table, i, page, p->page_table_stride,
                     p->bs, (int32_t)fused_div_trunc(tok, p->page_size));
}

/* swa_page_table[i][page]: the slot's page id, -1 for the sentinel. */
FUSED_FN void fused_row_store_swa(FUSED_CTX *ctx, int64_t i, int64_t page, int64_t swa) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_SWA_PAGE_TABLE_WRONG_WIDTH)
    /* PLANTED FAULT swa_page_table_wrong_width: the row width passed to
     * the 2-D write is one too many (a checked execution that trusted it
     * would write past the table's end on the last row). */
    FUSED_WRITE_CELL(ctx, FUSED_BUF_SWA_PAGE_TABLE, p->swa_page_table, i, page,
                     p->page_table_stride + 1, p->bs,
                     swa < 0 ? -1 : fused_low32((uint64_t)fused_div_trunc(swa, p->page_size)));
#elif defined(GMFUZZ_FAULT_NEGATIVE_SWA_MAPPING_DIVIDED)
    /* PLANTED FAULT negative_swa_mapping_divided: only -1 is taken for the
     * sentinel; other negative slots are divided. */
    FUSED_WRITE_CELL(ctx, FUSED_BUF_SWA_PAGE_TABLE, p->swa_page_table, i, page,
                     p->page_table_stride, p->bs,
                     swa == -1 ? -1 : fused_low32((uint64_t)fused_div_trunc(swa, p->page_size)));
#else
    FUSED_WRITE_CELL(ctx, FUSED_BUF_SWA_PAGE_TABLE, p->swa_page_table, i, page,
                     p->page_table_stride, p->bs,
                     swa < 0 ? -1 : fused_low32((uint64_t)fused_div_trunc(swa, p->page_size)));
#endif
}

/* Row program i, page `page`, in the host execution's order. */
FUSED_FN void fused_row_page(FUSED_CTX *ctx, int64_t i, int64_t r, int64_t page) {
    const fused_params *p = FUSED_P(ctx);
    if (fused_row_page_skipped(p, page)) {
        return;
    }
    const int64_t tok = fused_row_token(ctx, r, page);
    fused_row_store_page(ctx, i, page, tok);
    if (p->swa_page_table != 0) {
        fused_row_store_swa(ctx, i, page, fused_row_slot(ctx, tok));
    }
}

/* Scan program: the k-th term of the cu_seqlens_k prefix sum,
 * int32(seq_lens[k]) + seqlen_offset, wrapping. */
FUSED_FN uint32_t fused_scan_k_term(FUSED_CTX *ctx, int64_t k) {
    const fused_params *p = FUSED_P(ctx);
    int64_t seq = FUSED_READ(ctx, FUSED_BUF_SEQ_LENS, p->seq_lens, k, p->bs);
#if defined(GMFUZZ_FAULT_SCAN_NO_SEQLEN_OFFSET)
    /* PLANTED FAULT scan_no_seqlen_offset: the offset is left out. */
    return (uint32_t)(uint64_t)seq;
#else
    return (uint32_t)(uint64_t)seq + (uint32_t)(uint64_t)p->seqlen_offset;
#endif
}

/* Scan program: the k-th term of the cu_seqlens_q prefix sum (cumsum mode). */
FUSED_FN uint32_t fused_scan_q_term(FUSED_CTX *ctx, int64_t k) {
    const fused_params *p = FUSED_P(ctx);
    if (p->q_mode != FUSED_Q_CUMSUM) {
        return 0;
    }
    return (uint32_t)FUSED_READ(ctx, FUSED_BUF_QLENS, p->qlens, k, p->bs);
}

#if defined(GMFUZZ_FAULT_SCAN_FIRST_WARP_ONLY) || defined(GMFUZZ_FAULT_SCAN_FIRST_BLOCK_ONLY)
#if defined(GMFUZZ_FAULT_SCAN_FIRST_WARP_ONLY)
#define FUSED_FAULT_SCAN_SEGMENT FUSED_FAULT_WARP_ROWS
#else
#define FUSED_FAULT_SCAN_SEGMENT FUSED_FAULT_BLOCK_ROWS
#endif
/* PLANTED FAULT scan_first_warp_only, PLANTED FAULT scan_first_block_only:
 * the carry into row k's segment is lost, so the sums restart at every
 * segment. Recomputed here from the terms, so the CPU shows it too. */
FUSED_FN void fused_fault_segment_sums(FUSED_CTX *ctx, int64_t k, uint32_t *k_sum,
                                       uint32_t *q_sum) {
    *k_sum = 0;
    *q_sum = 0;
    for (int64_t j = k - k % FUSED_FAULT_SCAN_SEGMENT; j <= k; j++) {
        *k_sum += fused_scan_k_term(ctx, j);
        *q_sum += fused_scan_q_term(ctx, j);
    }
}
#endif

/* Scan program: stores the inclusive sums up to row k. */
FUSED_FN void fused_scan_store(FUSED_CTX *ctx, int64_t k, uint32_t k_sum, uint32_t q_sum) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_SCAN_EXCLUSIVE)
    /* PLANTED FAULT scan_exclusive: row k's own term is not included. */
    k_sum -= fused_scan_k_term(ctx, k);
#elif defined(GMFUZZ_FAULT_SCAN_FIRST_WARP_ONLY) || defined(GMFUZZ_FAULT_SCAN_FIRST_BLOCK_ONLY)
    fused_fault_segment_sums(ctx, k, &k_sum, &q_sum);
#endif
#if defined(GMFUZZ_FAULT_SCAN_SATURATES)
    /* PLANTED FAULT scan_saturates: a sum past INT32_MAX is clamped there
     * instead of wrapping. */
    k_sum = k_sum >= 0x80000000u ? 0x7fffffffu : k_sum;
#endif
    FUSED_WRITE(ctx, FUSED_BUF_CU_SEQLENS_K, p->cu_seqlens_k, k + 1, p->bs + 1,
                fused_low32(k_sum));
    if (p->q_mode == FUSED_Q_CUMSUM) {
        FUSED_WRITE(ctx, FUSED_BUF_CU_SEQLENS_Q, p->cu_seqlens_q, k + 1, p->bs + 1,
                    fused_low32(q_sum));
    } else if (p->q_mode == FUSED_Q_STRIDED) {
#if defined(GMFUZZ_FAULT_STRIDED_Q_OFF_BY_ONE)
        /* PLANTED FAULT strided_q_off_by_one: k strides instead of k + 1. */
        FUSED_WRITE(ctx, FUSED_BUF_CU_SEQLENS_Q, p->cu_seqlens_q, k + 1, p->bs + 1,
                    fused_low32((uint64_t)k * (uint64_t)p->q_stride));
#elif defined(GMFUZZ_FAULT_NEGATIVE_Q_STRIDE_SHIFTED)
        /* PLANTED FAULT negative_q_stride_shifted: the negative stride's
         * path counts k strides. */
        uint64_t strides = (uint64_t)(p->q_stride < 0 ? k : k + 1);
        FUSED_WRITE(ctx, FUSED_BUF_CU_SEQLENS_Q, p->cu_seqlens_q, k + 1, p->bs + 1,
                    fused_low32(strides * (uint64_t)p->q_stride));
#else
        FUSED_WRITE(ctx, FUSED_BUF_CU_SEQLENS_Q, p->cu_seqlens_q, k + 1, p->bs + 1,
                    fused_low32((uint64_t)(k + 1) * (uint64_t)p->q_stride));
#endif
    }
}

/* SWA-out programs: slot t of swa_out_cache_loc, the SWA slot of the
 * location written this step (full int64, no truncation), -1 for a
 * negative location, 0 past num_out_tokens. */
FUSED_FN void fused_swa_out_slot(FUSED_CTX *ctx, int64_t t) {
    const fused_params *p = FUSED_P(ctx);
#if defined(GMFUZZ_FAULT_ABSENT_OUT_PAD_MINUS_ONE)
    /* PLANTED FAULT absent_out_pad_minus_one: no locations, no slots: the
     * sentinel is written. */
    int64_t value = p->out_cache_loc == 0 ? -1 : 0;
#else
    int64_t value = 0;
#endif
#if defined(GMFUZZ_FAULT_SWA_OUT_IGNORES_NUM_OUT_TOKENS)
    /* PLANTED FAULT swa_out_ignores_num_out_tokens: bounded by out_len
     * alone whenever out_cache_loc is given. */
    if (p->out_cache_loc != 0 && t < p->out_len) {
#else
    if (t < fused_num_out_tokens(p)) {
#endif
        int64_t loc = FUSED_READ(ctx, FUSED_BUF_OUT_CACHE_LOC, p->out_cache_loc, t, p->n_out);
#if defined(GMFUZZ_FAULT_LOC_GUARD_DROPPED)
        /* PLANTED FAULT loc_guard_dropped: the sentinel is looked up too. */
        value = FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, loc, p->swa_mapping_len);
#elif defined(GMFUZZ_FAULT_LOC_GUARD_EQ_MINUS_ONE)
        /* PLANTED FAULT loc_guard_eq_minus_one: only -1 is taken for the
         * sentinel; a deeper negative location is looked up. */
        value = loc == -1 ? -1
                          : FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, loc,
                                       p->swa_mapping_len);
#else
        value = loc < 0 ? -1
                        : FUSED_READ(ctx, FUSED_BUF_SWA_MAPPING, p->swa_mapping, loc,
                                     p->swa_mapping_len);
#endif
    }
#if defined(GMFUZZ_FAULT_SWA_OUT_NO_ZERO_PAD)
    /* PLANTED FAULT swa_out_no_zero_pad: the tail keeps its old contents. */
    else {
        return;
    }
#endif
    FUSED_WRITE(ctx, FUSED_BUF_SWA_OUT_CACHE_LOC, p->swa_out_cache_loc, t, p->out_len, value);
}
