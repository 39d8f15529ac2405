#include "harness.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool harness_replay_fail(harness_replay_outcome *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool harness_replay_fail(harness_replay_outcome *out, const char *fmt, ...) {
    out->passed = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
    return false;
}

/* "page_table[0][3]" */
static void harness_replay_where(const gm_difference *d, char *buf, size_t size) {
    if (d->rank == 2) {
        snprintf(buf, size, "%s[%zu][%zu]", gm_buf_name(d->buf), d->index[0], d->index[1]);
    } else {
        snprintf(buf, size, "%s[%zu]", gm_buf_name(d->buf), d->index[0]);
    }
}

/* Whether `actual` equals `expected` exactly: error presence, then every
 * element of every buffer. A legacy path that raised left no buffers worth
 * comparing (`errors_end_it`); a fused run that overran is still compared
 * unless `errors_end_it`. */
static bool harness_replay_same_outputs(const char *side, bool errors_end_it, const gm_case *c,
                                        const gm_outputs *expected, const gm_outputs *actual,
                                        harness_replay_outcome *out) {
    if ((expected->error != NULL) != (actual->error != NULL)) {
        return harness_replay_fail(
            out, "%s: expected %s%s, got %s%s", side, expected->error ? "an error: " : "no error",
            expected->error ? expected->error : "", actual->error ? "an error: " : "no error",
            actual->error ? actual->error : "");
    }
    if (expected->error != NULL && errors_end_it) {
        return true; /* nothing left in the buffers that the run defines */
    }
    gm_verdict v;
    gm_oracle_compare_buffers(c, expected, actual, GM_COMPARE_STRICT, &v);
    if (v.status == GM_STATUS_MATCH) {
        return true;
    }
    char where[96] = "a buffer's presence or shape";
    if (v.first.present) {
        harness_replay_where(&v.first, where, sizeof where);
    }
    return harness_replay_fail(
        out, "%s: %s: expected %" PRId64 ", got %" PRId64 " (%zu elements differ)", side, where,
        v.first.reference, v.first.fused, v.n_differences);
}

static void harness_replay_describe_verdict(const gm_verdict *v, char *buf, size_t size) {
    char where[96] = "";
    if (v->first.present) {
        harness_replay_where(&v->first, where, sizeof where);
    }
    snprintf(buf, size, "%s at %s (buffers 0x%x, first %s)", gm_status_name(v->status),
             gm_compare_name(v->compare), v->buffers, v->first.present ? where : "none");
}

static bool harness_replay_vector(const gm_doc *doc, const harness_run_result *r,
                                  harness_replay_outcome *out) {
    return harness_replay_same_outputs("reference vs legacy", true, &doc->c, &doc->reference,
                                       &r->reference, out) &&
           harness_replay_same_outputs("fused vs fused", false, &doc->c, &doc->fused, &r->fused,
                                       out);
}

bool harness_replay_recorded_here(const harness_backend *b, const gm_doc *doc) {
    const char *here = harness_target_backend_name(harness_backend_kind_of(b));
    return doc->repro.backend != NULL && strcmp(doc->repro.backend, here) == 0;
}

/* After the fused kernel's first out-of-bounds access the host execution
 * performs nothing more, while on a GPU the other blocks carry on: what the
 * buffers hold then depends on the backend. A reproducer replayed where it
 * was recorded must give them back exactly; elsewhere, the overrun itself. */
static bool harness_replay_repro(const gm_doc *doc, const harness_run_result *r, bool same_backend,
                                 harness_replay_outcome *out) {
    if (!gm_verdict_equal(&doc->repro.verdict, &r->verdict)) {
        char want[160], got[160];
        harness_replay_describe_verdict(&doc->repro.verdict, want, sizeof want);
        harness_replay_describe_verdict(&r->verdict, got, sizeof got);
        return harness_replay_fail(out, "verdict: expected %s, got %s", want, got);
    }
    return harness_replay_same_outputs("reference (recorded)", true, &doc->c, &doc->reference,
                                       &r->reference, out) &&
           harness_replay_same_outputs("fused (recorded)", !same_backend, &doc->c, &doc->fused,
                                       &r->fused, out);
}

static bool harness_replay_case(const harness_run_result *r, harness_replay_outcome *out) {
    if (r->verdict.status == GM_STATUS_MATCH) {
        return true;
    }
    char got[160];
    harness_replay_describe_verdict(&r->verdict, got, sizeof got);
    return harness_replay_fail(out, "verdict: %s%s%s", got,
                               r->reference.error ? "; reference: " : "",
                               r->reference.error ? r->reference.error : "");
}

bool harness_replay_doc(harness_backend *b, const gm_doc *doc, gm_compare case_level,
                        harness_replay_outcome *out, gm_error *err) {
    return harness_replay_doc3(b, NULL, doc, case_level, out, err);
}

bool harness_replay_doc3(harness_backend *b, harness_run_legacy *legacy, const gm_doc *doc,
                         gm_compare case_level, harness_replay_outcome *out, gm_error *err) {
    out->passed = true;
    out->message[0] = '\0';
    gm_compare level = doc->kind == GM_DOC_REPRO ? doc->repro.verdict.compare : case_level;
    harness_run_result r;
    harness_run_result_init(&r);
    if (!harness_run_case3(b, legacy, &doc->c, level, &r, err)) {
        harness_run_result_free(&r);
        return false;
    }
    if (r.drift[0] != '\0' && doc->kind != GM_DOC_REPRO) {
        harness_replay_fail(out, "reference_drift: %s", r.drift);
        harness_run_result_free(&r);
        return true;
    }
    switch (doc->kind) {
    case GM_DOC_VECTOR:
        harness_replay_vector(doc, &r, out);
        break;
    case GM_DOC_REPRO:
        harness_replay_repro(doc, &r, harness_replay_recorded_here(b, doc), out);
        break;
    case GM_DOC_CASE:
        harness_replay_case(&r, out);
        break;
    }
    harness_run_result_free(&r);
    return true;
}
