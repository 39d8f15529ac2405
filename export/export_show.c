#include "export.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the differing elements --------------------------------------------- */

static bool export_show_is_compared(const gm_case *c, const harness_run_result *r, gm_buf_id id,
                                    size_t flat) {
    return r->verdict.compare == GM_COMPARE_STRICT ||
           gm_oracle_is_live(c, &r->reference, id, flat);
}

static void export_show_add(export_show_diffs *d, size_t max_rows, const gm_case *c,
                            const harness_run_result *r, gm_buf_id id, size_t flat) {
    const gm_buffer *a = &r->reference.buf[id];
    d->compared++;
    if (d->n_rows == max_rows) {
        return;
    }
    export_show_row *row = &d->rows[d->n_rows++];
    row->buf = id;
    row->rank = a->rank;
    row->index[0] = a->rank == 2 ? flat / a->dims[1] : flat;
    row->index[1] = a->rank == 2 ? flat % a->dims[1] : 0;
    row->reference = gm_buffer_get(a, flat);
    row->fused = gm_buffer_get(&r->fused.buf[id], flat);
    row->cls = triage_classify_element(c, r, id, flat);
}

/* One buffer that both sides have, in one shape. */
static void export_show_buffer(export_show_diffs *d, size_t max_rows, const gm_case *c,
                               const harness_run_result *r, gm_buf_id id) {
    const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
    for (size_t k = 0; k < gm_buffer_count(a); k++) {
        if (gm_buffer_get(a, k) == gm_buffer_get(b, k)) {
            continue;
        }
        if (export_show_is_compared(c, r, id, k)) {
            export_show_add(d, max_rows, c, r, id, k);
        } else {
            d->uncompared++;
        }
    }
}

static bool export_show_same_shape(const gm_buffer *a, const gm_buffer *b) {
    return a->present && b->present && a->dims[0] == b->dims[0] && a->dims[1] == b->dims[1];
}

bool export_show_differences(const gm_case *c, const harness_run_result *r, size_t max_rows,
                             export_show_diffs *out, gm_error *err) {
    memset(out, 0, sizeof *out);
    out->rows = calloc(max_rows + 1, sizeof *out->rows);
    if (out->rows == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %zu rows", max_rows);
    }
    if (!gm_status_compared(r->verdict.status)) {
        return true;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *a = &r->reference.buf[id], *b = &r->fused.buf[id];
        if (export_show_same_shape(a, b)) {
            export_show_buffer(out, max_rows, c, r, (gm_buf_id)id);
        } else if (a->present || b->present) {
            out->misshaped |= 1u << id;
        }
    }
    return true;
}

void export_show_diffs_free(export_show_diffs *d) {
    free(d->rows);
    memset(d, 0, sizeof *d);
}

/* ---- a result from a recording ------------------------------------------ */

bool export_show_recorded(const gm_doc *doc, gm_compare level, harness_run_result *out, gm_error *err) {
    harness_run_result_init(out);
    if (!gm_outputs_copy(&out->reference, &doc->reference, err) ||
        !gm_outputs_copy(&out->fused, &doc->fused, err) ||
        (doc->repro.has_torch && !gm_outputs_copy(&out->torch, &doc->repro.torch, err))) {
        harness_run_result_free(out);
        return false;
    }
    out->has_torch = doc->kind == GM_DOC_REPRO && doc->repro.has_torch;
    gm_oracle_judge(&doc->c, &out->reference, &out->fused, level, &out->verdict);
    if (doc->kind == GM_DOC_REPRO && doc->repro.verdict.status == GM_STATUS_REFERENCE_DRIFT) {
        out->verdict = (gm_verdict){.status = GM_STATUS_REFERENCE_DRIFT, .compare = level};
    }
    return true;
}

/* ---- printing ------------------------------------------------------------ */

static void export_show_verdict(FILE *out, const gm_verdict *v) {
    char line[256];
    gm_verdict_describe(v, line, sizeof line);
    fprintf(out, "verdict: %s\n", line);
}

static void export_show_finding(FILE *out, const gm_case *c, const harness_run_result *r) {
    triage_finding f;
    triage_classify(c, r, &f);
    if (f.status == GM_STATUS_MATCH) {
        return;
    }
    fprintf(out, "signature: %s\nclasses:", f.signature);
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (f.classes & (1u << k)) {
            fprintf(out, " %s", triage_class_name((triage_class)k));
        }
    }
    fputc('\n', out);
}

static void export_show_errors(FILE *out, const harness_run_result *r) {
    if (r->reference.error != NULL) {
        fprintf(out, "reference (legacy) raised: %s\n", r->reference.error);
    }
    if (r->fused.error != NULL) {
        fprintf(out, "fused: %s\n", r->fused.error);
    }
    if (!gm_status_compared(r->verdict.status)) {
        fputs("(buffers are not compared after a legacy raise, a fused out-of-bounds access, a "
              "target failure or a reference drift)\n",
              out);
    }
}

static void export_show_row_print(FILE *out, const export_show_row *row) {
    char where[96];
    if (row->rank == 2) {
        snprintf(where, sizeof where, "%s[%zu][%zu]", gm_buf_name(row->buf), row->index[0],
                 row->index[1]);
    } else {
        snprintf(where, sizeof where, "%s[%zu]", gm_buf_name(row->buf), row->index[0]);
    }
    fprintf(out, "  %-28s %12" PRId64 " %12" PRId64 "  %s\n", where, row->reference, row->fused,
            triage_class_name(row->cls));
}

static void export_show_rows(FILE *out, const export_show_diffs *d, const harness_run_result *r) {
    if (d->compared > 0) {
        fprintf(out, "  %-28s %12s %12s  %s\n", "buffer[index]", "reference", "fused", "class");
    }
    for (size_t i = 0; i < d->n_rows; i++) {
        export_show_row_print(out, &d->rows[i]);
    }
    if (d->compared > d->n_rows) {
        fprintf(out, "  ... %zu more\n", d->compared - d->n_rows);
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (d->misshaped & (1u << id)) {
            fprintf(out, "  %s: on one side only, or shaped differently (unclassified)\n",
                    gm_buf_name((gm_buf_id)id));
        }
    }
    if (d->uncompared > 0) {
        fprintf(out, "  (%zu more element%s differ%s where %s does not compare)\n", d->uncompared,
                d->uncompared == 1 ? "" : "s", d->uncompared == 1 ? "s" : "",
                gm_compare_name(r->verdict.compare));
    }
}

/* A three-way run: both references side by side where they differ (the
 * fused buffers beside them), and the drift's bucket (triage_drift.h). */
static void export_show_drift(FILE *out, const gm_case *c, const harness_run_result *r,
                              size_t max_rows) {
    triage_finding f;
    triage_classify(c, r, &f);
    if (f.status == GM_STATUS_REFERENCE_DRIFT) {
        fprintf(out, "bucket: %s\n", f.bucket);
    }
    if (r->torch.error != NULL) {
        fprintf(out, "torch reference raised: %s\n", r->torch.error);
    }
    size_t shown = 0, differ = 0;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *a = &r->reference.buf[id], *t = &r->torch.buf[id], *u = &r->fused.buf[id];
        size_t n = a->present && t->present ? gm_buffer_count(a) : 0;
        size_t width = a->rank == 2 && a->dims[1] > 0 ? a->dims[1] : 1;
        for (size_t k = 0; k < n && k < gm_buffer_count(t); k++) {
            int64_t va = gm_buffer_get(a, k), vt = gm_buffer_get(t, k);
            if (va == vt || differ++ >= max_rows) {
                continue;
            }
            if (shown++ == 0) {
                fprintf(out, "C reference vs torch (the legacy sequence in real PyTorch):\n"
                             "  %-28s %12s %12s %12s\n",
                        "buffer[index]", "C reference", "torch", "fused");
            }
            char where[96], fused[24] = "-";
            if (a->rank == 2) {
                snprintf(where, sizeof where, "%s[%zu][%zu]", gm_buf_name((gm_buf_id)id),
                         k / width, k % width);
            } else {
                snprintf(where, sizeof where, "%s[%zu]", gm_buf_name((gm_buf_id)id), k);
            }
            if (u->present && k < gm_buffer_count(u)) {
                snprintf(fused, sizeof fused, "%" PRId64, gm_buffer_get(u, k));
            }
            fprintf(out, "  %-28s %12" PRId64 " %12" PRId64 " %12s\n", where, va, vt, fused);
        }
    }
    if (differ > shown) {
        fprintf(out, "  ... %zu more\n", differ - shown);
    }
}

bool export_show_result(FILE *out, const gm_case *c, const harness_run_result *r, size_t max_rows,
                        gm_error *err) {
    export_show_diffs d;
    if (!export_show_differences(c, r, max_rows, &d, err)) {
        return false;
    }
    export_show_verdict(out, &r->verdict);
    export_show_finding(out, c, r);
    export_show_errors(out, r);
    export_show_rows(out, &d, r);
    if (r->has_torch) {
        export_show_drift(out, c, r, max_rows);
    }
    export_show_diffs_free(&d);
    return true;
}
