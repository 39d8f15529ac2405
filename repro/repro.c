/* repro: a classified run as a gmfuzz-repro-v1 document. Nothing is
 * allocated for the record itself: the strings the document needs live in
 * local buffers for the time of one write. */
#include "repro.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef GMFUZZ_VERSION
#error "GMFUZZ_VERSION must be defined by the build (repro/CMakeLists.txt)"
#endif

#define REPRO_NAME_MAX 40

/* Now, as ISO-8601 UTC with seconds: "2026-11-29T10:00:00Z". */
static void repro_now(char *buf, size_t size) {
    time_t now = time(NULL);
    struct tm utc;
    if (now == (time_t)-1 || gmtime_r(&now, &utc) == NULL ||
        strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) {
        snprintf(buf, size, "1970-01-01T00:00:00Z"); /* no clock: still a valid time */
    }
}

/* The names of the finding's classes, in enum order, into `names`. */
static size_t repro_class_names(const triage_finding *f, char names[][REPRO_NAME_MAX],
                                char **ptrs) {
    size_t n = 0;
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (f->classes & (1u << k)) {
            snprintf(names[n], REPRO_NAME_MAX, "%s", triage_class_name((triage_class)k));
            ptrs[n] = names[n];
            n++;
        }
    }
    return n;
}

bool repro_write(const char *path, const gm_case *c, const harness_run_result *r,
                 const triage_finding *f, harness_backend_kind backend, const repro_origin *origin,
                 gm_error *err) {
    char backend_name[REPRO_NAME_MAX], found_by[REPRO_NAME_MAX], found_at[64];
    char signature[TRIAGE_SIGNATURE_MAX], version[] = "gmfuzz " GMFUZZ_VERSION;
    char class_names[TRIAGE_CLASS_COUNT][REPRO_NAME_MAX];
    char *class_ptrs[TRIAGE_CLASS_COUNT];
    snprintf(backend_name, sizeof backend_name, "%s", harness_target_backend_name(backend));
    snprintf(found_by, sizeof found_by, "%s", origin->found_by ? origin->found_by : "unknown");
    snprintf(signature, sizeof signature, "%s", f->signature);
    if (origin->found_at != NULL) {
        snprintf(found_at, sizeof found_at, "%s", origin->found_at);
    } else {
        repro_now(found_at, sizeof found_at);
    }
    gm_repro rec = {
        .backend = backend_name,
        .verdict = r->verdict,
        .classes = class_ptrs,
        .n_classes = repro_class_names(f, class_names, class_ptrs),
        .signature = signature,
        .has_found = true,
        .found_by = found_by,
        .found_at = found_at,
        .found_execs = origin->execs,
        .minimized = origin->minimized,
        .tool_version = version,
        .reference_drift = r->drift[0] ? (char *)r->drift : NULL,
        .has_torch = r->has_torch && !r->torch_failed,
        .torch = r->torch, /* borrowed for the write */
    };
    if (origin->target != NULL) {
        rec.has_target = true;
        rec.target = *origin->target; /* borrowed for the write */
    }
    cJSON *root = gm_json_repro(c, &r->reference, &r->fused, &rec);
    if (root == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory building the reproducer",
                            path);
    }
    bool ok = gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    return ok;
}

void repro_recorded_finding(const gm_doc *doc, triage_finding *out) {
    harness_run_result r;
    harness_run_result_init(&r);
    r.reference = doc->reference; /* borrowed: never freed here */
    r.fused = doc->fused;
    r.has_torch = doc->repro.has_torch;
    r.torch = doc->repro.torch;
    gm_oracle_compare_buffers(&doc->c, &r.reference, &r.fused, doc->repro.verdict.compare,
                              &r.verdict);
    if (!gm_status_compared(doc->repro.verdict.status)) {
        r.verdict.status = doc->repro.verdict.status;
    }
    triage_classify(&doc->c, &r, out);
}
