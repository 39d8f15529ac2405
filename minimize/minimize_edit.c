/* minimize_edit: the minimizer's edits that take one optional part out of
 * a case, or fold one into another, without changing its shape: see
 * minimize_edit.h. */
#include "minimize_edit.h"

#include <stdlib.h>
#include <string.h>

void minimize_edit_clear_init(gm_case *c, gm_buf_id id) {
    free(c->init[id].values);
    c->init[id] = (gm_init){GM_INIT_DEFAULT, 0, NULL, 0};
}

bool minimize_edit_no_seq_lens_cpu(gm_case *c) {
    bool had = c->seq_lens_cpu != NULL;
    free(c->seq_lens_cpu);
    c->seq_lens_cpu = NULL;
    return had;
}

bool minimize_edit_no_max_seq_pages(gm_case *c) {
    bool had = c->has_max_seq_pages;
    c->has_max_seq_pages = false;
    c->max_seq_pages = 0;
    return had;
}

/* qlens are read in draft_extend only. */
bool minimize_edit_no_qlens(gm_case *c) {
    bool had = c->qlens != NULL && c->mode != GM_MODE_DRAFT_EXTEND;
    if (had) {
        free(c->qlens);
        c->qlens = NULL;
    }
    return had;
}

bool minimize_edit_no_swa(gm_case *c) {
    if (!c->has_swa) {
        return false;
    }
    free(c->swa.mapping);
    free(c->swa.out_cache_loc);
    memset(&c->swa, 0, sizeof c->swa);
    c->has_swa = false;
    minimize_edit_clear_init(c, GM_BUF_SWA_PAGE_TABLE);
    minimize_edit_clear_init(c, GM_BUF_SWA_OUT_CACHE_LOC);
    return true;
}

bool minimize_edit_no_swa_page_table(gm_case *c) {
    bool had = c->has_swa && c->swa.page_table;
    c->swa.page_table = false;
    minimize_edit_clear_init(c, GM_BUF_SWA_PAGE_TABLE);
    return had;
}

bool minimize_edit_no_out_buffer(gm_case *c) {
    bool had = c->has_swa && c->swa.has_out_len;
    c->swa.has_out_len = false;
    c->swa.out_len = 0;
    minimize_edit_clear_init(c, GM_BUF_SWA_OUT_CACHE_LOC);
    return had;
}

bool minimize_edit_no_out_cache_loc(gm_case *c) {
    bool had = c->has_swa && c->swa.out_cache_loc != NULL;
    free(c->swa.out_cache_loc);
    c->swa.out_cache_loc = NULL;
    c->swa.n_out = 0;
    return had;
}

/* Tokens off the page starts are never read in bounds: zero them all. */
bool minimize_edit_zero_unread_tokens(gm_case *c) {
    bool changed = false;
    for (size_t k = 0; k < c->pool * c->width; k++) {
        if (k % c->width % (size_t)c->page_size != 0 && c->req_to_token[k] != 0) {
            c->req_to_token[k] = 0;
            changed = true;
        }
    }
    return changed;
}

/* The mode's offset moved into the lengths: target_verify's D and
 * draft_decode's step id become 0 and seq_lens (and the host copy) grow by
 * them, which keeps cache_seqlens and M as they were. */
bool minimize_edit_fold_offset(gm_case *c) {
    int64_t by = c->mode == GM_MODE_TARGET_VERIFY  ? c->num_draft_tokens
                 : c->mode == GM_MODE_DRAFT_DECODE ? c->speculative_step_id
                                                   : 0;
    for (size_t i = 0; by != 0 && i < c->bs; i++) {
        int64_t cpu = c->seq_lens_cpu != NULL ? c->seq_lens_cpu[i] : 0;
        if (__builtin_add_overflow(c->seq_lens[i], by, &c->seq_lens[i]) ||
            __builtin_add_overflow(cpu, by, &cpu)) {
            return false; /* a length at the int64 edge: leave the offset */
        }
        if (c->seq_lens_cpu != NULL) {
            c->seq_lens_cpu[i] = cpu;
        }
    }
    c->num_draft_tokens = c->mode == GM_MODE_TARGET_VERIFY ? 0 : c->num_draft_tokens;
    c->speculative_step_id = c->mode == GM_MODE_DRAFT_DECODE ? 0 : c->speculative_step_id;
    return by != 0;
}
