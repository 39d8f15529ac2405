/* minimize_shrink: edits that make a case smaller while keeping it well formed
 * (gm_case_check) and keeping what every remaining part means: removing a
 * batch row removes it from every per-row array and every `init` array;
 * shrinking the pool or the SWA mapping renumbers the indices that point
 * into them, so that each remaining reference still reads the same
 * element, a negative (wrapping) index still wraps onto it, and an index
 * that was out of range stays out of range on the same side.
 *
 * These are the moves of the minimizer (minimize.h); whether a smaller
 * case still shows the same difference is for the minimizer to check.
 * Each function builds `out` (owned by the caller, free with gm_case_free)
 * from `src`; false only when memory runs out (err set, out empty).
 */
#ifndef MINIMIZE_SHRINK_H
#define MINIMIZE_SHRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_error.h"

/* Batch rows [lo, hi) removed (lo <= hi <= bs). */
bool minimize_shrink_drop_rows(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                               gm_error *err);

/* Page columns [lo, hi) removed (lo < hi <= max_num_pages, not all of
 * them): their positions leave every req_to_token row, max_context_len
 * and the page tables (and their init arrays) lose those columns, and
 * seq_lens, seq_lens_cpu and max_seq_pages lose what they covered of them,
 * so that the pages after the cut keep their tokens and liveness. */
bool minimize_shrink_drop_pages(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                                gm_error *err);

/* The pool reduced to the rows that req_pool_indices reach (at least one). */
bool minimize_shrink_pool(const gm_case *src, gm_case *out, gm_error *err);

/* max_context_len lowered to `mcl` (1 <= mcl <= src's): the page tables
 * lose their last columns, and so do their `init` arrays. */
bool minimize_shrink_context(const gm_case *src, int32_t mcl, gm_case *out, gm_error *err);

/* req_to_token rows cut to `width` (max_context_len <= width <= src's). */
bool minimize_shrink_width(const gm_case *src, size_t width, gm_case *out, gm_error *err);

/* The SWA mapping reduced to the slots that tokens (with an SWA page
 * table) and out_cache_loc reach, plus its last element (the -1 sentinel
 * by convention). Needs an SWA case. */
bool minimize_shrink_mapping(const gm_case *src, gm_case *out, gm_error *err);

/* out_cache_loc entries [lo, hi) removed (needs an out_cache_loc). */
bool minimize_shrink_drop_out_locs(const gm_case *src, size_t lo, size_t hi, gm_case *out,
                                   gm_error *err);

/* The swa_out_cache_loc buffer shortened to `out_len` (<= src's); its
 * `init` array loses its tail. */
bool minimize_shrink_out_len(const gm_case *src, size_t out_len, gm_case *out, gm_error *err);

#endif
