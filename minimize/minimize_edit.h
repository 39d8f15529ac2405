/* minimize_edit: the minimizer's edits that take one optional part out of
 * a case (the host copy of seq_lens, max_seq_pages, qlens outside
 * draft_extend, the SWA part or one of its buffers, an init array), zero
 * the tokens that no in-bounds read reaches, or fold the mode's offset
 * into the lengths. Each leaves a well formed case of the same shape;
 * whether it still has the target's signature is for minimize.c to run.
 * The edits that change the shape are minimize_shrink's. Private to the
 * minimize room. */
#ifndef MINIMIZE_EDIT_H
#define MINIMIZE_EDIT_H

#include <stdbool.h>

#include "gm_case.h"

/* Each edit changes `c` in place; false when it has nothing to change
 * (then `c` is not a candidate). */
typedef bool (*minimize_edit_fn)(gm_case *c);

/* Buffer `id`'s prior contents back to the default (no init array). */
void minimize_edit_clear_init(gm_case *c, gm_buf_id id);

bool minimize_edit_no_seq_lens_cpu(gm_case *c);
bool minimize_edit_no_max_seq_pages(gm_case *c);
bool minimize_edit_no_qlens(gm_case *c);
bool minimize_edit_no_swa(gm_case *c);
bool minimize_edit_no_swa_page_table(gm_case *c);
bool minimize_edit_no_out_buffer(gm_case *c);
bool minimize_edit_no_out_cache_loc(gm_case *c);
bool minimize_edit_zero_unread_tokens(gm_case *c);
bool minimize_edit_fold_offset(gm_case *c);

#endif
