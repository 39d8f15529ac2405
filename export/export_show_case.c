#include "export.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* How many values an abbreviated list shows before and after "...". */
enum { EXPORT_SHOW_CASE_HEAD = 8, EXPORT_SHOW_CASE_TAIL = 2 };

static int64_t export_show_case_at(const void *data, bool is_int64, size_t k) {
    return is_int64 ? ((const int64_t *)data)[k] : ((const int32_t *)data)[k];
}

/* "[a, b, c]", or "[a, ..., z] (n values)" when long. */
static void export_show_case_list(FILE *out, const void *data, bool is_int64, size_t n) {
    bool cut = n > EXPORT_SHOW_CASE_LIST_MAX;
    fputc('[', out);
    for (size_t k = 0; k < n; k++) {
        if (cut && k == EXPORT_SHOW_CASE_HEAD) {
            fputs(", ...", out);
            k = n - EXPORT_SHOW_CASE_TAIL;
        }
        fprintf(out, "%s%" PRId64, k == 0 ? "" : ", ", export_show_case_at(data, is_int64, k));
    }
    fputc(']', out);
    if (cut) {
        fprintf(out, " (%zu values)", n);
    }
}

static void export_show_case_shape(FILE *out, const gm_case *c) {
    size_t pages = gm_case_max_num_pages(c);
    fprintf(out, "case: %s, mode %s, bs %zu, page_size %d, max_context_len %d\n",
            c->name != NULL ? c->name : "(unnamed)", gm_mode_name(c->mode), c->bs,
            (int)c->page_size, (int)c->max_context_len);
    fprintf(out, "  page table: max_num_pages %zu, fused writes %zu column%s%s\n", pages,
            c->has_max_seq_pages ? (size_t)c->max_seq_pages : pages,
            (c->has_max_seq_pages ? (size_t)c->max_seq_pages : pages) == 1 ? "" : "s",
            c->has_max_seq_pages ? " (max_seq_pages)" : "");
    fprintf(out, "  pool: req_to_token %zu x %zu; req_pool_indices ", c->pool, c->width);
    export_show_case_list(out, c->req_pool_indices, true, c->bs);
    fputc('\n', out);
}

static void export_show_case_lengths(FILE *out, const gm_case *c) {
    fputs("  seq_lens ", out);
    export_show_case_list(out, c->seq_lens, true, c->bs);
    fputs("; seq_lens_cpu ", out);
    if (c->seq_lens_cpu == NULL) {
        fputs("= seq_lens", out);
    } else {
        export_show_case_list(out, c->seq_lens_cpu, true, c->bs);
    }
    fputc('\n', out);
}

static void export_show_case_swa(FILE *out, const gm_case *c) {
    const gm_swa *s = &c->swa;
    if (!c->has_swa) {
        fputs("  swa: none\n", out);
        return;
    }
    fputs("  swa: mapping ", out);
    export_show_case_list(out, s->mapping, true, s->mapping_len);
    fprintf(out, ", page table %s, out_cache_loc ", s->page_table ? "yes" : "no");
    if (s->out_cache_loc == NULL) {
        fputs("none", out);
    } else {
        export_show_case_list(out, s->out_cache_loc, true, s->n_out);
    }
    if (s->has_out_len) {
        fprintf(out, ", out_len %zu\n", s->out_len);
    } else {
        fputs(", no swa_out_cache_loc buffer\n", out);
    }
}

/* The mode's query-side inputs and what becomes of cu_seqlens_q. */
static void export_show_case_q(FILE *out, const gm_case *c) {
    int64_t offset = gm_case_seqlen_offset(c);
    switch (c->mode) {
    case GM_MODE_DECODE:
        fputs("  q: cu_seqlens_q untouched (q_mode 0), seqlen_offset 0\n", out);
        break;
    case GM_MODE_DRAFT_DECODE:
        fprintf(out, "  q: speculative_step_id %d (seqlen_offset %" PRId64
                     "), cu_seqlens_q untouched (q_mode 0)\n", (int)c->speculative_step_id, offset);
        break;
    case GM_MODE_TARGET_VERIFY:
        fprintf(out, "  q: num_draft_tokens %d (seqlen_offset %" PRId64
                     "), cu_seqlens_q untouched (q_mode 0)\n", (int)c->num_draft_tokens, offset);
        break;
    case GM_MODE_DRAFT_EXTEND:
        fputs("  q: qlens ", out);
        export_show_case_list(out, c->qlens, false, c->qlens != NULL ? c->bs : 0);
        fputs(", cu_seqlens_q = cumsum (q_mode 1)\n", out);
        break;
    default:
        fprintf(out, "  q: q_stride %d, cu_seqlens_q[1+k] = (k+1) * q_stride (q_mode 2)\n",
                (int)c->q_stride);
        break;
    }
}

/* The prior contents that are not the defaults: a stale tail shows them. */
static void export_show_case_init(FILE *out, const gm_case *c) {
    bool any = false;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_init *in = &c->init[id];
        if (in->kind == GM_INIT_DEFAULT) {
            continue;
        }
        fprintf(out, "%s%s ", any ? "; " : "  init: ", gm_buf_name((gm_buf_id)id));
        if (in->kind == GM_INIT_FILL) {
            fprintf(out, "fill %" PRId64, in->fill);
        } else {
            export_show_case_list(out, in->values, true, in->len);
        }
        any = true;
    }
    if (any) {
        fputc('\n', out);
    }
}

void export_show_case(FILE *out, const gm_case *c) {
    export_show_case_shape(out, c);
    export_show_case_lengths(out, c);
    export_show_case_swa(out, c);
    export_show_case_q(out, c);
    export_show_case_init(out, c);
}
