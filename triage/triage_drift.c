/* triage_drift: the buckets of a drift between the C reference and real
 * PyTorch (the format: triage_drift.h). Everything comes from the run's
 * two reference outputs and the case: a reproducer read back, which carries
 * torch's outputs, gets the bucket its campaign gave it.
 */
#include "triage_drift.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_oracle.h"
#include "triage_bucket.h"

/* The page-table columns and SWA write locations of one tile (as
 * triage_target.c: the keys of both rooms read alike). */
#define TRIAGE_DRIFT_TILE 512

/* The relations of "how", weakest first: the strongest seen wins. */
enum {
    TRIAGE_DRIFT_STALE = 1,
    TRIAGE_DRIFT_FLOOR_VS_TRUNC,
    TRIAGE_DRIFT_OFF_BY_ONE,
    TRIAGE_DRIFT_INT32_WRAP,
    TRIAGE_DRIFT_OTHER
};

static const char *const triage_drift_relations[] = {
    "-", "stale", "floor_vs_trunc", "off_by_one", "int32_wrap", "other",
};

/* What the differing elements of the first differing buffer show. */
typedef struct {
    gm_buf_id id;
    size_t width;         /* row width (1 for a vector) */
    size_t first, last;   /* flat index of the first and last differing elements */
    size_t min_col;       /* page tables: the leftmost differing column */
    bool any_live;        /* page tables: one attention reads; swa_out: a slot */
    int relation;
} triage_drift_seen;

static bool triage_drift_is_page_table(gm_buf_id id) {
    return id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE;
}

/* The low 32 bits as a signed int32, without an implementation-defined cast. */
static int64_t triage_drift_low32(int64_t v) {
    uint32_t u = (uint32_t)(uint64_t)v;
    return u <= (uint32_t)INT32_MAX ? (int64_t)u : (int64_t)u - ((int64_t)1 << 32);
}

static bool triage_drift_wide(int64_t v) { return v < INT32_MIN || v > INT32_MAX; }

/* The C reference wrote `a`, torch `b`, the buffer held `prior`. */
static int triage_drift_relation(gm_buf_id id, int64_t a, int64_t b, int64_t prior) {
    __int128 gap = (__int128)a - b;
    if ((triage_drift_wide(a) && b == triage_drift_low32(a)) ||
        (triage_drift_wide(b) && a == triage_drift_low32(b))) {
        return TRIAGE_DRIFT_INT32_WRAP;
    }
    if (gap == 1 || gap == -1) {
        /* trunc(n / P) and floor(n / P) differ by one, exactly where n < 0
         * is no multiple of P: the floor is then negative */
        bool negative = (a < b ? a : b) < 0;
        return triage_drift_is_page_table(id) && negative ? TRIAGE_DRIFT_FLOOR_VS_TRUNC
                                                          : TRIAGE_DRIFT_OFF_BY_ONE;
    }
    /* after the others: a truncated -1 // P is 0, often the old contents too */
    return a == prior || b == prior ? TRIAGE_DRIFT_STALE : TRIAGE_DRIFT_OTHER;
}

static size_t triage_drift_num_out_tokens(const gm_case *c) {
    const gm_swa *swa = &c->swa;
    if (swa->out_cache_loc == NULL) {
        return 0;
    }
    return swa->n_out < swa->out_len ? swa->n_out : swa->out_len;
}

static void triage_drift_note(triage_drift_seen *s, const gm_case *c, const gm_outputs *torch,
                              size_t flat, int rel) {
    size_t col = flat % s->width;
    if (s->relation == 0) {
        s->first = flat;
        s->min_col = col;
    }
    s->last = flat;
    s->min_col = col < s->min_col ? col : s->min_col;
    if (s->id == GM_BUF_SWA_OUT_CACHE_LOC) {
        s->any_live = s->any_live || flat < triage_drift_num_out_tokens(c);
    } else if (triage_drift_is_page_table(s->id)) {
        s->any_live = s->any_live || gm_oracle_is_live(c, torch, s->id, flat);
    }
    s->relation = rel > s->relation ? rel : s->relation;
}

/* Goes over buffer s->id: false when both references wrote the same. */
static bool triage_drift_scan(triage_drift_seen *s, const gm_case *c, const harness_run_result *r,
                              const gm_outputs *prior) {
    const gm_buffer *a = &r->reference.buf[s->id], *b = &r->torch.buf[s->id];
    const gm_buffer *old = &prior->buf[s->id];
    size_t n = gm_buffer_count(a);
    s->width = a->rank == 2 && a->dims[1] > 0 ? a->dims[1] : 1;
    for (size_t k = 0; k < n; k++) {
        int64_t va = gm_buffer_get(a, k), vb = gm_buffer_get(b, k);
        if (va != vb) {
            triage_drift_note(s, c, &r->torch, k,
                              triage_drift_relation(s->id, va, vb, gm_buffer_get(old, k)));
        }
    }
    return s->relation != 0;
}

static void triage_drift_where(const triage_drift_seen *s, const gm_case *c,
                               const gm_outputs *torch, char *out, size_t size) {
    switch (s->id) {
    case GM_BUF_PAGE_TABLE:
    case GM_BUF_SWA_PAGE_TABLE:
        snprintf(out, size, "%s%s", s->any_live ? "live" : "tail",
                 s->min_col >= TRIAGE_DRIFT_TILE ? "@cols>=512" : "");
        break;
    case GM_BUF_SWA_OUT_CACHE_LOC:
        snprintf(out, size, "%s%s", s->any_live ? "slots" : "padding",
                 s->first >= TRIAGE_DRIFT_TILE ? "@locs>=512" : "");
        break;
    case GM_BUF_CU_SEQLENS_K:
    case GM_BUF_CU_SEQLENS_Q:
        if (s->first == 0) {
            snprintf(out, size, "head");
        } else {
            char rows[32];
            triage_bucket_scan_rows(s->first - 1, s->last - 1, c->bs, &torch->buf[s->id], rows,
                                    sizeof rows);
            snprintf(out, size, "live%s", rows);
        }
        break;
    default: snprintf(out, size, "live"); break;
    }
}

static bool triage_drift_same_shape(const gm_buffer *a, const gm_buffer *b) {
    return a->present == b->present &&
           (!a->present || (a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1]));
}

/* The first buffer in which the two references differ, as a key. */
static void triage_drift_buffers(const gm_case *c, const harness_run_result *r, char *out,
                                 size_t size) {
    gm_outputs prior;
    gm_outputs_init(&prior);
    gm_error err = {0};
    if (!gm_outputs_prepare(&prior, c, &err)) {
        snprintf(out, size, "reference_drift|-|-"); /* out of memory: the class alone */
        return;
    }
    snprintf(out, size, "reference_drift:-|-|other"); /* no buffer differs: what then? */
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        triage_drift_seen s = {.id = (gm_buf_id)id};
        const char *what = triage_bucket_buffer_name(c, s.id);
        const gm_buffer *a = &r->reference.buf[id];
        if (!triage_drift_same_shape(a, &r->torch.buf[id])) {
            snprintf(out, size, "reference_drift:%s|shape|other", what);
            break;
        }
        if (a->present && triage_drift_scan(&s, c, r, &prior)) {
            char where[64];
            triage_drift_where(&s, c, &r->torch, where, sizeof where);
            snprintf(out, size, "reference_drift:%s|%s|%s", what, where,
                     triage_drift_relations[s.relation]);
            break;
        }
    }
    gm_outputs_free(&prior);
}

void triage_drift_bucket(const gm_case *c, const harness_run_result *r, char *out, size_t size) {
    bool c_raised = r->reference.error != NULL, torch_raised = r->torch.error != NULL;
    if (!r->has_torch) {
        snprintf(out, size, "reference_drift|-|-");
    } else if (r->torch_failed) {
        snprintf(out, size, "reference_drift:torch|-|%s",
                 strstr(r->torch.error, "hung") != NULL ? "hung" : "crashed");
    } else if (c_raised && !torch_raised) {
        /* "<kind>: step N: ...": the step from the error, which a reproducer keeps */
        const char *step = strstr(r->reference.error, "step ");
        snprintf(out, size, "reference_drift:raise|c_only@step%d|raises_one_side",
                 step != NULL ? atoi(step + 5) : 0);
    } else if (torch_raised && !c_raised) {
        snprintf(out, size, "reference_drift:raise|torch_only|raises_one_side");
    } else {
        triage_drift_buffers(c, r, out, size);
    }
}
