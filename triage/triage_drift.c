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

#include "triage_bucket.h"

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

/* What the differing elements of the first differing buffer show (its
 * region read as a target's is: triage_bucket_span, torch held right). */
typedef struct {
    triage_bucket_span span;
    int relation;
} triage_drift_seen;

static bool triage_drift_is_page_table(gm_buf_id id) {
    return id == GM_BUF_PAGE_TABLE || id == GM_BUF_SWA_PAGE_TABLE;
}

static bool triage_drift_wide(int64_t v) { return v < INT32_MIN || v > INT32_MAX; }

/* The C reference wrote `a`, torch `b`, the buffer held `prior`. */
static int triage_drift_relation(gm_buf_id id, int64_t a, int64_t b, int64_t prior) {
    __int128 gap = (__int128)a - b;
    if ((triage_drift_wide(a) && b == triage_bucket_low32(a)) ||
        (triage_drift_wide(b) && a == triage_bucket_low32(b))) {
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

/* Goes over buffer s->id: false when both references wrote the same. */
static bool triage_drift_scan(triage_drift_seen *s, const harness_run_result *r,
                              const gm_outputs *prior) {
    gm_buf_id id = s->span.id;
    const gm_buffer *a = &r->reference.buf[id], *b = &r->torch.buf[id];
    const gm_buffer *old = &prior->buf[id];
    size_t n = gm_buffer_count(a);
    for (size_t k = 0; k < n; k++) {
        int64_t va = gm_buffer_get(a, k), vb = gm_buffer_get(b, k);
        if (va != vb) {
            triage_bucket_span_note(&s->span, k);
            int rel = triage_drift_relation(id, va, vb, gm_buffer_get(old, k));
            s->relation = rel > s->relation ? rel : s->relation;
        }
    }
    return s->relation != 0;
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
        triage_drift_seen s = {.relation = 0};
        triage_bucket_span_init(&s.span, c, &r->torch, (gm_buf_id)id);
        const char *what = triage_bucket_buffer_name(c, (gm_buf_id)id);
        const gm_buffer *a = &r->reference.buf[id];
        if (!triage_bucket_same_shape(a, &r->torch.buf[id])) {
            snprintf(out, size, "reference_drift:%s|shape|other", what);
            break;
        }
        if (a->present && triage_drift_scan(&s, r, &prior)) {
            char where[64];
            triage_bucket_span_where(&s.span, where, sizeof where);
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
