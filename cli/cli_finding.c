#include "cli_finding.h"

#include <stdio.h>
#include <string.h>

#include "gm_classify.h"
#include "gm_run.h"

/* The recorded class names as a set; false when one is not a class. */
static bool cli_finding_recorded_classes(const gm_repro *r, unsigned *mask, const char **bad) {
    *mask = 0;
    for (size_t i = 0; i < r->n_classes; i++) {
        gm_class k;
        if (!gm_class_from_name(r->classes[i], &k)) {
            *bad = r->classes[i];
            return false;
        }
        *mask |= 1u << k;
    }
    return true;
}

/* "[a, b]" for the set bits of `mask`. */
static void cli_finding_names(unsigned mask, char *buf, size_t size) {
    size_t at = 0;
    at += (size_t)snprintf(buf, size, "[");
    for (int k = 0; k < GM_CLASS_COUNT && at < size; k++) {
        if (mask & (1u << k)) {
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at > 1 ? ", " : "",
                                   gm_class_name((gm_class)k));
        }
    }
    if (at < size) {
        snprintf(buf + at, size - at, "]");
    }
}

/* The classifier's finding for the recording: its outputs and verdict as a
 * run result (borrowed, never freed). */
static void cli_finding_of_recording(const gm_doc *doc, gm_finding *f) {
    gm_run_result r;
    memset(&r, 0, sizeof r);
    r.reference = doc->reference;
    r.fused = doc->fused;
    r.verdict = doc->repro.verdict;
    gm_classify(&doc->c, &r, f);
}

bool cli_finding_check(const gm_doc *doc, char *why, size_t size) {
    if (doc->kind != GM_DOC_REPRO) {
        return true;
    }
    gm_finding f;
    cli_finding_of_recording(doc, &f);
    unsigned recorded = 0;
    const char *bad = NULL;
    bool known = cli_finding_recorded_classes(&doc->repro, &recorded, &bad);
    bool same_signature = strcmp(f.signature, doc->repro.signature) == 0;
    if (same_signature && known && recorded == f.classes) {
        return true;
    }
    char was[600], now[600];
    cli_finding_names(recorded, was, sizeof was);
    cli_finding_names(f.classes, now, sizeof now);
    if (!known) {
        snprintf(was, sizeof was, "[... %.200s (not a class) ...]", bad);
    }
    snprintf(why, size, "signature: recorded %.400s, recomputed %s (classes: recorded %s, "
             "recomputed %s)", doc->repro.signature, f.signature, was, now);
    return false;
}
