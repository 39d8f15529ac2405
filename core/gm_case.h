/* gm_case: the case model, one metadata rebuild before one graph replay.
 *
 * This is the only thing that `reference/` and `kernel/`-driving code share.
 * A gm_case owns all of its arrays (free them with gm_case_free). Optional
 * inputs are NULL pointers or `has_*` flags, never magic values, so that
 * "absent" and "present but zero" stay distinct: the two sides of the
 * comparison treat them differently (SPEC section 4, out_cache_loc_absent).
 *
 * Field meanings and rules: docs/FORMATS.md and docs/SEMANTICS.md.
 */
#ifndef GM_CASE_H
#define GM_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"

typedef enum {
    GM_MODE_DECODE,
    GM_MODE_DRAFT_DECODE,
    GM_MODE_TARGET_VERIFY,
    GM_MODE_DRAFT_EXTEND,
    GM_MODE_DRAFT_EXTEND_V2,
    GM_MODE_COUNT
} gm_mode;

/* The six output buffers, in the order the formats list them. */
typedef enum {
    GM_BUF_CACHE_SEQLENS,
    GM_BUF_CU_SEQLENS_K,
    GM_BUF_CU_SEQLENS_Q,
    GM_BUF_PAGE_TABLE,
    GM_BUF_SWA_PAGE_TABLE,
    GM_BUF_SWA_OUT_CACHE_LOC,
    GM_BUF_COUNT
} gm_buf_id;

/* Prior contents of one output buffer (`init` in the case format). */
typedef enum {
    GM_INIT_DEFAULT, /* zeros; the mode's preset for cu_seqlens_q */
    GM_INIT_FILL,    /* every element = fill */
    GM_INIT_ARRAY,   /* values[] in row-major order, of the buffer's size */
} gm_init_kind;

typedef struct {
    gm_init_kind kind;
    int64_t fill;
    int64_t *values;
    size_t len;
} gm_init;

typedef struct {
    int64_t *mapping;          /* full-pool slot -> SWA slot, length >= 1 */
    size_t mapping_len;
    bool page_table;           /* an SWA page table buffer exists */
    int64_t *out_cache_loc;    /* NULL: none passed this step */
    size_t n_out;              /* length of out_cache_loc */
    bool has_out_len;          /* a swa_out_cache_loc buffer exists */
    size_t out_len;            /* its length */
} gm_swa;

typedef struct {
    char *name;                /* optional label, NULL when absent */
    gm_mode mode;
    int32_t page_size;         /* >= 1 */
    int32_t max_context_len;   /* >= 1, <= width */

    size_t pool, width;        /* req_to_token is [pool, width] */
    int32_t *req_to_token;     /* row-major */

    size_t bs;
    int64_t *req_pool_indices; /* [bs] */
    int64_t *seq_lens;         /* [bs] */
    int64_t *seq_lens_cpu;     /* [bs], NULL: equal to seq_lens */

    int32_t speculative_step_id;
    int32_t num_draft_tokens;
    int32_t *qlens;            /* [bs], NULL when absent */
    int32_t q_stride;

    bool has_max_seq_pages;
    int32_t max_seq_pages;     /* fused page-table width override, >= 0 */

    bool has_swa;
    gm_swa swa;

    gm_init init[GM_BUF_COUNT];
} gm_case;

/* Names as they appear in the JSON formats. */
const char *gm_mode_name(gm_mode mode);
bool gm_mode_from_name(const char *name, gm_mode *out);
const char *gm_buf_name(gm_buf_id id);
bool gm_buf_is_int64(gm_buf_id id);

/* An empty case: every optional part absent, every pointer NULL. */
void gm_case_init(gm_case *c);
void gm_case_free(gm_case *c);
/* Deep copy; false only when memory runs out. */
bool gm_case_copy(gm_case *dst, const gm_case *src, gm_error *err);

/* ceil(max_context_len / page_size): the static page-table width. */
size_t gm_case_max_num_pages(const gm_case *c);

/* The mode's seqlen_offset (SPEC section 1): what both sides add to seq_lens. */
int64_t gm_case_seqlen_offset(const gm_case *c);

/* Shape of an output buffer for this case: rank 1 or 2 and its dims.
 * Returns false when the case has no such buffer (SWA buffers). */
bool gm_case_buf_shape(const gm_case *c, gm_buf_id id, int *rank, size_t dims[2]);

/* The rules of the case format that span fields (lengths agree, required
 * fields present, init arrays of the right size, ...). The JSON reader calls
 * it; code that builds cases directly (fuzz decoders) calls it too. */
bool gm_case_check(const gm_case *c, gm_error *err);

#endif
