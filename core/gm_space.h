/* gm_space: the one description of the input space.
 *
 * Every way gmfuzz makes inputs draws its edge values from here: the
 * fuzz decoder's special selectors (fuzz/fuzz_value.c: special k of an
 * input is class k of its table, in this order), the case-level mutator
 * (fuzz/fuzz_mutate.c), the libFuzzer dictionary (fuzz/gmfuzz.dict, whose
 * set_* words name the class they select; tests/test_space.c checks that
 * they agree) and the sweep's generator (harness/harness_gen.c). A class
 * added here reaches all of them; a second, hand-written list beside it
 * is how the sweep once missed `loc == -1` for `loc < 0` (issue 23).
 *
 * A value class is add + m1 * b1 + m2 * b2, wrapping, over the case's
 * sizes (gm_space_ctx): "page size - 1", "len(mapping) + 1", INT32_MAX,
 * "INT32_MAX / bs + 1" (rows whose running sum passes int32). Evaluating
 * one is a switch and two multiplies: cheap enough for the per-input path.
 *
 * The ORDER of each table is part of the fuzzer's byte format (a selector
 * names a class by its index): append new classes at the end only, and
 * only knowing that inputs whose selector wrapped past the old count
 * change meaning (corpus/regress holds JSON cases, which do not).
 */
#ifndef GM_SPACE_H
#define GM_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"

/* The signed inputs (and the generators' steps) a class belongs to. */
typedef enum {
    GM_SPACE_SEQ,     /* sequence lengths (seq_lens, seq_lens_cpu) */
    GM_SPACE_TOKEN,   /* req_to_token slots */
    GM_SPACE_ROW,     /* req_pool_indices */
    GM_SPACE_MAP,     /* swa mapping values (int64, beyond int32 too) */
    GM_SPACE_LOC,     /* out_cache_loc slots */
    GM_SPACE_COUNT,   /* small int32 parameters: step id, draft tokens, q_stride, qlens */
    GM_SPACE_STEP,    /* strides of generated progressions */
    GM_SPACE_ROWSTEP, /* row stride of generated req_to_token */
    GM_SPACE_FILL,    /* stale contents of output buffers */
    GM_SPACE_N
} gm_space_input;

/* The sizes a class is relative to. */
typedef struct {
    int64_t page_size, max_context_len, width, pool, bs, max_num_pages;
    int64_t full_size;   /* pool * width: the token slots */
    int64_t mapping_len; /* 0 without swa */
    int64_t out_len;     /* 0 without a swa_out_cache_loc buffer */
} gm_space_ctx;

/* The sizes of case `c` (its page size, widths, pool, batch, mapping). */
void gm_space_ctx_of(const gm_case *c, gm_space_ctx *ctx);

/* The most classes one input has (the decoder's selectors hold 60). */
#define GM_SPACE_CLASSES_MAX 60

/* How many classes `in` has, and class k (taken modulo that count) for the
 * case of `ctx`. */
unsigned gm_space_count(gm_space_input in);
int64_t gm_space_value(gm_space_input in, const gm_space_ctx *ctx, unsigned k);

/* Class k's short name ("neg2", "page_m1", "int32_max"): what the
 * dictionary's set_* words end with. NULL past the count. */
const char *gm_space_name(gm_space_input in, unsigned k);

/* The input's name ("seq", "loc", ...), for messages and the dictionary. */
const char *gm_space_input_name(gm_space_input in);

/* Whether `v` is a value of some class of `in` for `ctx`. */
int gm_space_has(gm_space_input in, const gm_space_ctx *ctx, int64_t v);

/* ---- sizes ------------------------------------------------------------- */

/* The edges of the kernels' blocks and tiles: the scan's warp (32) and
 * chunk (256), the SWA-out and page-column tiles (512), the larger scan
 * regions (1024, 2048, 4096), and the block widths between (64, 128). A
 * size at one is edge - 1, edge or edge + 1 (gm_space_edge_size). */
extern const int32_t gm_space_edges[];
extern const size_t gm_space_edge_count;
/* Edge (k / 3) + (k % 3) - 1: every size at an edge, k < 3 * count. */
int64_t gm_space_edge_size(unsigned k);

/* Page sizes: 1 to 256, the powers of two and their neighbours (the
 * non-powers a shift-for-divide kernel gets wrong). */
extern const int32_t gm_space_page_sizes[];
extern const size_t gm_space_page_size_count;

/* ---- whole rows ---------------------------------------------------------- */

/* How a case's seq_lens are made, beside "lengths up to max_context_len":
 * the row patterns where kernels break. */
typedef enum {
    GM_SPACE_ROWS_EMPTY,    /* every row 0 */
    GM_SPACE_ROWS_FULL,     /* every row max_context_len */
    GM_SPACE_ROWS_CLASSES,  /* a row in four a class of GM_SPACE_SEQ */
    GM_SPACE_ROWS_SUM_WRAP, /* INT32_MAX / bs + 1 each: the running sum passes int32 */
    GM_SPACE_ROWS_NONPOS,   /* some rows with seq_len + seqlen_offset <= 0 */
    GM_SPACE_ROWS_N
} gm_space_rows;

/* A row's seq_len in pattern `rows` (`draw` a random number for the row),
 * for a mode whose seqlen_offset is `offset`. */
int64_t gm_space_row_len(gm_space_rows rows, const gm_space_ctx *ctx, int64_t offset,
                         uint64_t draw);

/* ---- corners: several rare values at once ---------------------------------- */

/* Whole cases that independent draws almost never make, because each needs
 * several rare values together. The fuzzer reaches them through its
 * whole-array generators and mutations (a 60 s campaign did both); the
 * sweep's generator and the case-level mutator make them here, so that
 * neither depends on luck. Each keeps the case's sizes and arrays. */
typedef enum {
    /* draft_decode, every seq_len INT64_MIN and a speculative step that
     * makes seqlen_offset <= -page_size: M + P - 1, a Python int on the
     * legacy path, lies below int64 (a wide floor division, rounded). */
    GM_SPACE_CORNER_LENS_BELOW_INT64,
    /* every pool row out of range by a multiple of 2^64 / width, so that
     * the fused kernel's wrapping int64 address lands back in the table
     * (row 0, or slot 1 for an odd width); the host copy of seq_lens says
     * every row is empty (M = 0: the legacy slice reads no row) while the
     * device copy's rows are live; max_seq_pages given: the fused kernel
     * reads the wrapped rows and writes live columns. A mismatch on an
     * input out of bounds that no bounds check sees. */
    GM_SPACE_CORNER_WRAPPED_ROWS,
    GM_SPACE_CORNER_N
} gm_space_corner;

/* Makes `c` corner k's case (k taken modulo the count); `draw` varies it.
 * False only when memory ran out (a host copy of seq_lens to add). */
bool gm_space_corner_apply(unsigned k, gm_case *c, uint64_t draw);

/* Corner k's name ("lens_below_int64"); NULL past the count. */
const char *gm_space_corner_name(unsigned k);

#endif
