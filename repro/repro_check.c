#include "repro.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"

/* The recorded class names as a set; false when one is not a class. */
static bool repro_check_recorded_classes(const gm_repro *r, unsigned *mask, const char **bad) {
    *mask = 0;
    for (size_t i = 0; i < r->n_classes; i++) {
        triage_class k;
        if (!triage_class_from_name(r->classes[i], &k)) {
            *bad = r->classes[i];
            return false;
        }
        *mask |= 1u << k;
    }
    return true;
}

/* "[a, b]" for the set bits of `mask`. */
static void repro_check_names(unsigned mask, char *buf, size_t size) {
    size_t at = 0;
    at += (size_t)snprintf(buf, size, "[");
    for (int k = 0; k < TRIAGE_CLASS_COUNT && at < size; k++) {
        if (mask & (1u << k)) {
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at > 1 ? ", " : "",
                                   triage_class_name((triage_class)k));
        }
    }
    if (at < size) {
        snprintf(buf + at, size - at, "]");
    }
}

/* The classifier's finding for the recording: its outputs and recorded
 * verdict as a run result (borrowed, never freed). Not
 * repro_recorded_finding: that one compares the buffers again even
 * where the verdict did not (a fused out-of-bounds access), which is right
 * for a bucket and not what the campaign signed. */
static void repro_check_of_recording(const gm_doc *doc, triage_finding *f) {
    harness_run_result r;
    memset(&r, 0, sizeof r);
    r.reference = doc->reference;
    r.fused = doc->fused;
    r.has_torch = doc->repro.has_torch;
    r.torch = doc->repro.torch;
    r.verdict = doc->repro.verdict;
    triage_classify(&doc->c, &r, f);
}

bool repro_check(const gm_doc *doc, triage_finding *now, char *why, size_t size) {
    triage_finding f;
    memset(&f, 0, sizeof f);
    if (doc->kind != GM_DOC_REPRO) {
        if (now != NULL) {
            *now = f;
        }
        return true;
    }
    repro_check_of_recording(doc, &f);
    if (now != NULL) {
        *now = f;
    }
    unsigned recorded = 0;
    const char *bad = NULL;
    bool known = repro_check_recorded_classes(&doc->repro, &recorded, &bad);
    bool same_signature = strcmp(f.signature, doc->repro.signature) == 0;
    if (same_signature && known && recorded == f.classes) {
        return true;
    }
    char was[600], is[600];
    repro_check_names(recorded, was, sizeof was);
    repro_check_names(f.classes, is, sizeof is);
    if (!known) {
        snprintf(was, sizeof was, "[... %.200s (not a class) ...]", bad);
    }
    snprintf(why, size, "signature: recorded %.400s, recomputed %s (classes: recorded %s, "
             "recomputed %s)", doc->repro.signature, f.signature, was, is);
    return false;
}
