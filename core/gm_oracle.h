/* gm_oracle: compares what the reference (legacy) and the fused kernel left
 * in the six buffers, at one of the two levels of SPEC section 4, and says
 * what the verdict is.
 *
 *   strict  every element of every buffer;
 *   live    what the attention kernel reads: cache_seqlens, cu_seqlens_k and
 *           cu_seqlens_q in full ([0..bs]), the first
 *           clamp(ceil(cache_seqlens[i] / P), 0, max_num_pages) columns of
 *           each page-table row (both page tables; cache_seqlens taken from
 *           the reference side), and all of swa_out_cache_loc.
 */
#ifndef GM_ORACLE_H
#define GM_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_outputs.h"

typedef enum { GM_COMPARE_LIVE, GM_COMPARE_STRICT } gm_compare;

/* Precedence when several hold: the C reference disagreeing with real
 * PyTorch (three-way runs: nothing else can be trusted then), an
 * out-of-bounds access of the fused kernel (memory corruption where the
 * legacy path at worst raised), an external target that raised, crashed
 * or hung (docs/TARGETS.md: the fused kernel raises nothing), then a legacy
 * raise (nothing to compare), then buffers. */
typedef enum {
    GM_STATUS_MATCH,
    GM_STATUS_MISMATCH,
    GM_STATUS_REFERENCE_ERROR,
    GM_STATUS_FUSED_OUT_OF_BOUNDS,
    GM_STATUS_TARGET_FAILED,
    GM_STATUS_REFERENCE_DRIFT,
} gm_status;

/* The prefixes of a fused `error` (gm_outputs.h) that an external target's
 * failure leaves (docs/TARGETS.md); anything else is an out-of-bounds
 * access of the fused model. */
#define GM_TARGET_RAISED_PREFIX "target_raised: "
#define GM_TARGET_CRASHED_PREFIX "target_crashed: "
#define GM_TARGET_HUNG_PREFIX "target_hung: "
#define GM_TARGET_DEVIATES_PREFIX "target_deviates: "
/* The target (or a builtin GPU backend) changed an input buffer
 * (docs/TARGETS.md, "Inputs are read-only"). */
#define GM_TARGET_WROTE_INPUT_PREFIX "target_wrote_input: "

/* Whether the verdict compared buffers (match or mismatch): the other
 * statuses name one cause for the whole run. */
bool gm_status_compared(gm_status s);

/* Whether a fused error is an external target's failure. */
bool gm_oracle_is_target_failure(const char *fused_error);

typedef struct {
    bool present;
    gm_buf_id buf;
    int rank;           /* 1 or 2: how many entries of index[] count */
    size_t index[2];
    int64_t reference;
    int64_t fused;
} gm_difference;

typedef struct {
    gm_status status;
    gm_compare compare;
    unsigned buffers;       /* bit (1u << gm_buf_id) for each differing buffer */
    size_t n_differences;   /* differing elements, over all buffers */
    gm_difference first;    /* in buffer order, then row-major */
} gm_verdict;

const char *gm_compare_name(gm_compare c);
bool gm_compare_from_name(const char *name, gm_compare *out);
const char *gm_status_name(gm_status s);
bool gm_status_from_name(const char *name, gm_status *out);

/* Whether element `flat` of buffer `id` is read by the attention kernel
 * (the live level); `ref` supplies cache_seqlens. */
bool gm_oracle_is_live(const gm_case *c, const gm_outputs *ref, gm_buf_id id, size_t flat);

/* Compares buffers only (errors ignored) at `level`; fills `v` with
 * MATCH or MISMATCH and the differences. A buffer present on one side only
 * counts as differing in full. */
void gm_oracle_compare_buffers(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                               gm_compare level, gm_verdict *v);

/* The verdict of one differential run (precedence above). */
void gm_oracle_judge(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                     gm_compare level, gm_verdict *v);

/* Whether two verdicts are the same: status, level, buffers, first difference. */
bool gm_verdict_equal(const gm_verdict *a, const gm_verdict *b);

/* One line for people: "match at live", "mismatch at strict: 2 elements
 * differ in page_table swa_page_table", "fused_out_of_bounds at live"
 * (truncated to `size`). */
void gm_verdict_describe(const gm_verdict *v, char *out, size_t size);

#endif
