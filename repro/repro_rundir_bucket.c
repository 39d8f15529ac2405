/* repro_rundir_bucket: signatures into buckets. A bucket is new when one of
 * its signatures is (or, when the baseline lists the bucket itself, as
 * that entry says); the buckets are listed new ones first, each group in
 * the order of its first signature (the folder's order, by first seen). */
#include "repro_rundir_bucket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"
#include "repro.h"

bool repro_rundir_bucket_of(const char *path, char *out, size_t size, char **stale) {
    gm_limits limits;
    gm_limits_default(&limits);
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    char why[GM_ERROR_MSG_MAX];
    bool ok = true;
    *stale = NULL;
    if (gm_json_read_file(path, &limits, &doc, &err) && doc.kind == GM_DOC_REPRO) {
        triage_finding f;
        if (repro_check(&doc, &f, why, sizeof why)) {
            snprintf(out, size, "%s", f.bucket[0] != '\0' ? f.bucket : "-|-|-");
        } else {
            snprintf(out, size, "%s", REPRO_CHECK_STALE_BUCKET);
            *stale = strdup(why);
            ok = *stale != NULL;
        }
    } else {
        snprintf(out, size, "unreadable|-|-");
    }
    gm_doc_free(&doc);
    return ok;
}

static size_t repro_rundir_bucket_find(const repro_rundir *r, const char *key) {
    size_t b = 0;
    while (b < r->n_buckets && strcmp(r->buckets[b].key, key) != 0) {
        b++;
    }
    return b;
}

/* Adds signature `i` to its bucket (a new one when none has its key). */
static bool repro_rundir_bucket_add(repro_rundir *r, size_t i, const char *key) {
    size_t b = repro_rundir_bucket_find(r, key);
    repro_rundir_bucket *k = &r->buckets[b];
    if (b == r->n_buckets) {
        r->n_buckets++;
        memset(k, 0, sizeof *k);
        snprintf(k->key, sizeof k->key, "%s", key);
        k->sigs = calloc(r->n_sigs, sizeof *k->sigs);
        k->smallest = i;
        if (k->sigs == NULL) {
            return false;
        }
    }
    const repro_rundir_signature *s = &r->sigs[i];
    k->sigs[k->n_sigs++] = i;
    k->inputs += s->count;
    k->fresh = k->fresh || !s->baseline.known;
    if (s->smallest_bs < r->sigs[k->smallest].smallest_bs) {
        k->smallest = i;
    }
    r->sigs[i].bucket = b;
    return true;
}

/* A bucket the baseline lists by its key decides for its signatures that
 * the baseline does not know otherwise (as the fuzz check decides). */
static void repro_rundir_bucket_ask(repro_rundir *r, repro_rundir_bucket *k,
                                    const triage_baseline *baseline) {
    if (strcmp(k->key, REPRO_CHECK_STALE_BUCKET) == 0) {
        return; /* never known: what its files claim is not what they show */
    }
    triage_finding f;
    memset(&f, 0, sizeof f);
    f.status = GM_STATUS_MISMATCH;
    snprintf(f.bucket, sizeof f.bucket, "%s", k->key);
    f.classes = 1u << TRIAGE_CLASS_UNCLASSIFIED; /* never known by its classes alone */
    triage_baseline_lookup(baseline, &f, &k->baseline);
    if (!k->baseline.known) {
        return;
    }
    k->fresh = false;
    for (size_t j = 0; j < k->n_sigs; j++) {
        repro_rundir_signature *s = &r->sigs[k->sigs[j]];
        if (!s->baseline.known && !(s->finding.classes & (1u << TRIAGE_CLASS_REFERENCE_DRIFT))) {
            s->baseline = k->baseline;
        }
    }
}

/* New buckets first, then known ones; each group keeps its order. */
static bool repro_rundir_bucket_order(repro_rundir *r) {
    repro_rundir_bucket *sorted = calloc(r->n_buckets + 1, sizeof *sorted);
    if (sorted == NULL) {
        return false;
    }
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t b = 0; b < r->n_buckets; b++) {
            if (r->buckets[b].fresh == (pass == 0)) {
                sorted[n++] = r->buckets[b];
            }
        }
    }
    free(r->buckets);
    r->buckets = sorted;
    for (size_t b = 0; b < r->n_buckets; b++) {
        for (size_t j = 0; j < r->buckets[b].n_sigs; j++) {
            r->sigs[r->buckets[b].sigs[j]].bucket = b;
        }
    }
    return true;
}

bool repro_rundir_bucket_build(repro_rundir *r, const triage_baseline *baseline, gm_error *err) {
    r->buckets = calloc(r->n_sigs + 1, sizeof *r->buckets);
    bool ok = r->buckets != NULL;
    for (size_t i = 0; ok && i < r->n_sigs; i++) {
        ok = repro_rundir_bucket_add(r, i, r->sigs[i].bucket_key);
    }
    for (size_t b = 0; ok && b < r->n_buckets; b++) {
        repro_rundir_bucket_ask(r, &r->buckets[b], baseline);
    }
    if (!ok || !repro_rundir_bucket_order(r)) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory for its buckets", r->path);
    }
    return true;
}

void repro_rundir_bucket_free(repro_rundir *r) {
    for (size_t b = 0; r->buckets != NULL && b < r->n_buckets; b++) {
        free(r->buckets[b].sigs);
    }
    free(r->buckets);
    r->buckets = NULL;
    r->n_buckets = 0;
}
