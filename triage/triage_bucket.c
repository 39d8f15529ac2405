/* triage_bucket: the root-cause key of a finding (the format: triage_bucket.h).
 * Only stable parts go in: a region, a relation and, for the scans, a row
 * range at the block edges; never a value, a length or an index that the
 * inputs choose, so that one bug found on many inputs keeps one bucket.
 */
#include "triage_bucket.h"

#include <stdio.h>
#include <string.h>

#include "triage.h"
#include "triage_drift.h"
#include "triage_target.h"
#include "gm_oracle.h"

void triage_bucket_seen_init(triage_bucket_seen *s) {
    memset(s, 0, sizeof *s);
    s->explained_class = -1;
}

/* The relations, in the order of precedence of "how" (the highest seen in
 * the buffer wins): a wrong value says more than a sentinel, and a
 * sentinel more than a zero, which an unwritten cell also shows. */
enum { TRIAGE_BUCKET_ZERO = 1, TRIAGE_BUCKET_SENTINEL, TRIAGE_BUCKET_VALUE };

/* Only values with a meaning are told apart. In swa_out_cache_loc: -1
 * (the no-slot sentinel) and 0 (the pad, or a slot left as it was: alike
 * whenever the old contents are zeros, the default). In the page tables: 0
 * or unwritten only (-1 is also the page of a token -1 there, so a wrong
 * token that reads -1 is just a wrong value). In the lengths and the scans
 * -1 and 0 mean nothing, so any wrong value is "value": else one wrong sum
 * splits into buckets by the inputs' arithmetic. */
static int triage_bucket_relation(gm_buf_id id, int64_t got, int64_t want, int64_t prior) {
    if (id == GM_BUF_CACHE_SEQLENS || id == GM_BUF_CU_SEQLENS_K || id == GM_BUF_CU_SEQLENS_Q) {
        return TRIAGE_BUCKET_VALUE;
    }
    if (got == 0 || got == prior) {
        return TRIAGE_BUCKET_ZERO;
    }
    bool sentinel = id == GM_BUF_SWA_OUT_CACHE_LOC && (got == -1 || want == -1);
    return sentinel ? TRIAGE_BUCKET_SENTINEL : TRIAGE_BUCKET_VALUE;
}

void triage_bucket_seen_note(triage_bucket_seen *s, gm_buf_id id, size_t flat, size_t width, int k,
                             int64_t got, int64_t want, int64_t prior) {
    if (k != TRIAGE_CLASS_UNCLASSIFIED) {
        if (s->explained_class < 0) {
            s->explained_class = k;
            s->explained_id = id;
        }
        return;
    }
    s->unexplained |= 1u << id;
    if (!s->have_first) {
        s->have_first = true;
        s->first_id = id;
        s->first_flat = flat;
        s->first_width = width;
        s->first_shape = width == 0; /* the buffers' shapes differ: no element to point at */
    }
    if (id == s->first_id) {
        s->last_flat = flat; /* the elements come in row-major order */
    }
    if (id == s->first_id && width > 0) {
        int rel = triage_bucket_relation(id, got, want, prior);
        s->relation = rel > s->relation ? rel : s->relation;
    }
}

/* ---- what: the buffers with unexplained elements ------------------------ */

/* cu_seqlens_q follows a different rule per mode (SPEC section 1). */
static const char *triage_bucket_q_path(gm_mode mode) {
    switch (mode) {
    case GM_MODE_DRAFT_EXTEND: return "cu_seqlens_q(cumsum)";
    case GM_MODE_DRAFT_EXTEND_V2: return "cu_seqlens_q(strided)";
    default: return "cu_seqlens_q(preset)";
    }
}

/* The first buffer with an unexplained element, as a stack's top frame:
 * the others differ mostly because the same bug reaches them in some modes
 * (a scan bug in cu_seqlens_q too in draft_extend; a row bug in
 * swa_page_table too with an SWA model), and the signature lists them. */
static const char *triage_bucket_what(const gm_case *c, gm_buf_id id) {
    if (id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE) {
        return "page_tables"; /* one row program writes both from one token */
    }
    return triage_bucket_buffer_name(c, id);
}

const char *triage_bucket_buffer_name(const gm_case *c, gm_buf_id id) {
    return id == GM_BUF_CU_SEQLENS_Q ? triage_bucket_q_path(c->mode) : gm_buf_name(id);
}

/* ---- where: the region of the first unexplained element ----------------- */

/* The block edges of a scan on the GPU: a warp (32), the blocks of 256 to
 * 4096 rows that scan programs use. */
static const size_t triage_bucket_edges[] = {32, 256, 512, 1024, 2048, 4096};
#define TRIAGE_BUCKET_EDGES (sizeof triage_bucket_edges / sizeof triage_bucket_edges[0])

/* Whether the rows before `row` sum to something in the scan's right output
 * (entry `row` of cu_seqlens is the sum of the rows before it). */
static bool triage_bucket_carried(const gm_buffer *expected, size_t row) {
    if (expected == NULL || !expected->present || expected->data == NULL ||
        row >= expected->dims[0]) {
        return true; /* nothing to tell by: the edge stands */
    }
    return expected->is_int64 ? ((const int64_t *)expected->data)[row] != 0
                              : ((const int32_t *)expected->data)[row] != 0;
}

/* Relative to the case, so that one fault keeps one key whatever bs is:
 * only the last row ("@last", however many rows there are: a fault of the
 * last row shows at bs 1 too), else the first row at a block edge
 * ("@edge1024": a carry lost there shows at that row, whatever bs) where
 * the rows before carry a sum into it (a fault of every nonzero row whose
 * case starts with empty rows first shows wherever they end, an edge or
 * not), else the block range of the first row ("@rows<32" ...
 * "@rows>=4096"). */
void triage_bucket_scan_rows(size_t first, size_t last, size_t rows, const gm_buffer *expected,
                             char *out, size_t size) {
    if (first == last && last + 1 == rows) {
        snprintf(out, size, "@last");
        return;
    }
    for (size_t k = 0; k < TRIAGE_BUCKET_EDGES; k++) {
        if (first == triage_bucket_edges[k] && triage_bucket_carried(expected, first)) {
            snprintf(out, size, "@edge%zu", first);
            return;
        }
    }
    for (size_t k = 0; k < TRIAGE_BUCKET_EDGES; k++) {
        if (first < triage_bucket_edges[k]) {
            snprintf(out, size, "@rows<%zu", triage_bucket_edges[k]);
            return;
        }
    }
    snprintf(out, size, "@rows>=%zu", triage_bucket_edges[TRIAGE_BUCKET_EDGES - 1]);
}

static size_t triage_bucket_num_out_tokens(const gm_case *c) {
    const gm_swa *swa = &c->swa;
    if (swa->out_cache_loc == NULL) {
        return 0;
    }
    return swa->n_out < swa->out_len ? swa->n_out : swa->out_len;
}

/* ---- spans: the differing elements of one buffer ------------------------ */

void triage_bucket_span_init(triage_bucket_span *s, const gm_case *c, const gm_outputs *right,
                             gm_buf_id id) {
    const gm_buffer *b = &right->buf[id];
    memset(s, 0, sizeof *s);
    s->c = c;
    s->right = right;
    s->id = id;
    s->width = b->rank == 2 && b->dims[1] > 0 ? b->dims[1] : 1;
}

void triage_bucket_span_note(triage_bucket_span *s, size_t flat) {
    size_t col = flat % s->width;
    if (s->count++ == 0) {
        s->first = flat;
        s->min_col = col;
    }
    s->last = flat;
    s->min_col = col < s->min_col ? col : s->min_col;
    if (s->id == GM_BUF_SWA_OUT_CACHE_LOC) {
        s->any_live = s->any_live || flat < triage_bucket_num_out_tokens(s->c);
    } else if (s->id == GM_BUF_PAGE_TABLE || s->id == GM_BUF_SWA_PAGE_TABLE) {
        s->any_live = s->any_live || gm_oracle_is_live(s->c, s->right, s->id, flat);
    }
}

void triage_bucket_span_where(const triage_bucket_span *s, char *out, size_t size) {
    switch (s->id) {
    case GM_BUF_PAGE_TABLE:
    case GM_BUF_SWA_PAGE_TABLE:
        snprintf(out, size, "%s%s", s->any_live ? "live" : "tail",
                 s->min_col >= TRIAGE_BUCKET_TILE ? "@cols>=512" : "");
        break;
    case GM_BUF_SWA_OUT_CACHE_LOC:
        snprintf(out, size, "%s%s", s->any_live ? "slots" : "padding",
                 s->first >= TRIAGE_BUCKET_TILE ? "@locs>=512" : "");
        break;
    case GM_BUF_CU_SEQLENS_K:
    case GM_BUF_CU_SEQLENS_Q:
        if (s->first == 0) {
            snprintf(out, size, "head");
        } else {
            char rows[32];
            triage_bucket_scan_rows(s->first - 1, s->last - 1, s->c->bs, &s->right->buf[s->id],
                                    rows, sizeof rows);
            snprintf(out, size, "live%s", rows);
        }
        break;
    default: snprintf(out, size, "live"); break;
    }
}

bool triage_bucket_same_shape(const gm_buffer *a, const gm_buffer *b) {
    return a->present == b->present &&
           (!a->present || (a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1]));
}

int64_t triage_bucket_low32(int64_t v) {
    uint32_t u = (uint32_t)(uint64_t)v;
    return u <= (uint32_t)INT32_MAX ? (int64_t)u : (int64_t)u - ((int64_t)1 << 32);
}

static void triage_bucket_where(const gm_case *c, const harness_run_result *r,
                                const triage_bucket_seen *s, char *out, size_t size) {
    gm_buf_id id = s->first_id;
    size_t flat = s->first_flat;
    if (s->first_shape) {
        snprintf(out, size, "shape");
        return;
    }
    switch (id) {
    case GM_BUF_PAGE_TABLE:
    case GM_BUF_SWA_PAGE_TABLE:
        snprintf(out, size, "%s", gm_oracle_is_live(c, &r->reference, id, flat) ? "live" : "tail");
        break;
    case GM_BUF_SWA_OUT_CACHE_LOC:
        snprintf(out, size, "%s", flat < triage_bucket_num_out_tokens(c) ? "slots" : "padding");
        break;
    case GM_BUF_CU_SEQLENS_K:
    case GM_BUF_CU_SEQLENS_Q:
        if (flat == 0) {
            snprintf(out, size, "head");
        } else {
            char rows[32];
            triage_bucket_scan_rows(flat - 1, s->last_flat - 1, c->bs, &r->reference.buf[id], rows,
                                    sizeof rows);
            snprintf(out, size, "live%s", rows);
        }
        break;
    default: snprintf(out, size, "live"); break;
    }
}

/* ---- how: what fused wrote against what it should have ------------------ */

static const char *triage_bucket_how(const triage_bucket_seen *s) {
    switch (s->first_shape ? 0 : s->relation) {
    case TRIAGE_BUCKET_ZERO: return "0_or_unwritten";
    case TRIAGE_BUCKET_SENTINEL: return "-1";
    case TRIAGE_BUCKET_VALUE: return "value";
    default: return "-";
    }
}

void triage_bucket_write_compared(const gm_case *c, const harness_run_result *r,
                                  const triage_bucket_seen *s, char *out, size_t size) {
    if (s->have_first) {
        char where[64];
        triage_bucket_where(c, r, s, where, sizeof where);
        snprintf(out, size, "%s|%s|%s", triage_bucket_what(c, s->first_id), where,
                 triage_bucket_how(s));
    } else if (s->explained_class >= 0) {
        snprintf(out, size, "class:%s|%s|predicted",
                 triage_class_name((triage_class)s->explained_class), gm_buf_name(s->explained_id));
    } else {
        out[0] = '\0'; /* a match: no finding */
    }
}

/* ---- runs whose buffers were not compared ------------------------------- */

/* The stable head of an error message: "kind: step N" of a raise, "read of
 * buffer" of an out-of-bounds access (no index, no length), with '|' kept
 * out of the key. */
static void triage_bucket_error_head(const char *error, bool raise, char *out, size_t size) {
    if (error == NULL) {
        snprintf(out, size, "-");
        return;
    }
    const char *from = error;
    size_t n;
    if (raise) {
        const char *colon = strchr(error, ':');
        const char *second = colon != NULL ? strchr(colon + 1, ':') : NULL;
        n = second != NULL ? (size_t)(second - error) : strcspn(error, ":");
    } else {
        const char *colon = strstr(error, ": ");
        from = colon != NULL ? colon + 2 : error;
        n = strcspn(from, "[:");
    }
    n = n < size ? n : size - 1;
    for (size_t k = 0; k < n; k++) {
        out[k] = from[k] == '|' ? '/' : from[k];
    }
    out[n] = '\0';
}

/* "target_wrote_input: seq_lens[3]: sent ..." -> "seq_lens" and "[3]": which
 * input, and its first changed element. */
static void triage_bucket_wrote_input(const char *error, char *what, size_t what_size,
                                      char *where, size_t where_size) {
    const char *colon = error != NULL ? strstr(error, ": ") : NULL;
    const char *from = colon != NULL ? colon + 2 : "";
    int n = (int)strcspn(from, "[:|");
    int m = from[n] == '[' ? (int)strcspn(from + n, ":|") : 0;
    snprintf(what, what_size, "%.*s", n > 0 ? n : 1, n > 0 ? from : "-");
    snprintf(where, where_size, "%.*s", m > 0 ? m : 1, m > 0 ? from + n : "-");
}

void triage_bucket_write_uncompared(const gm_case *c, const harness_run_result *r, triage_class k,
                                    char *out, size_t size) {
    const char *class_name = triage_class_name(k);
    char head[96];
    if (k == TRIAGE_CLASS_TARGET_RAISED || k == TRIAGE_CLASS_TARGET_CRASHED ||
        k == TRIAGE_CLASS_TARGET_HUNG || k == TRIAGE_CLASS_TARGET_DEVIATES) {
        triage_target_bucket(c, r, k, out, size);
        return;
    }
    if (k == TRIAGE_CLASS_REFERENCE_DRIFT) {
        triage_drift_bucket(c, r, out, size);
        return;
    }
    if (k == TRIAGE_CLASS_TARGET_WROTE_INPUT) {
        char where[64];
        triage_bucket_wrote_input(r->fused.error, head, sizeof head, where, sizeof where);
        snprintf(out, size, "%s|%s|%s", class_name, head, where);
        return;
    }
    if (strcmp(class_name, "legacy_raises") == 0) {
        triage_bucket_error_head(r->reference.error, true, head, sizeof head);
    } else if (strcmp(class_name, "fused_out_of_bounds") == 0 ||
               strcmp(class_name, "unclassified") == 0) {
        triage_bucket_error_head(r->fused.error, false, head, sizeof head);
    } else {
        snprintf(head, sizeof head, "-");
    }
    snprintf(out, size, "%s|%s|-", class_name, head);
}
