#include "campaign_repro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm_file.h"
#include "gm_json.h"
#include "gm_textfile.h"
#include "minimize.h"
#include "repro.h"
#include "harness.h"

/* Enough for a bs <= 1024 case to reach its fixed point in about a
 * second; a larger case stops early and is still written (smaller). */
#define CAMPAIGN_REPRO_MAX_RUNS 200000

/* FNV-1a: a short, stable tag for a signature too long to spell out. */
static uint32_t campaign_repro_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s != '\0'; s++) {
        h = (h ^ (uint8_t)*s) * 16777619u;
    }
    return h;
}

void campaign_repro_slug(const char *signature, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = signature; *p != '\0' && n + 1 < size; p++) {
        char c = *p;
        /* capitals too: an exception's type in a target's bucket (IndexError) */
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '_';
        out[n++] = plain ? c : (c == '|' ? '.' : (c == '+' ? '-' : '_'));
    }
    out[n] = '\0';
    /* A file name has at most 255 bytes: a long signature keeps its start
     * and gets its hash, so that two long ones never share a file. */
    if (n > CAMPAIGN_REPRO_SLUG_MAX && size > CAMPAIGN_REPRO_SLUG_MAX + 10) {
        snprintf(out + CAMPAIGN_REPRO_SLUG_MAX - 9, 10, "~%08x", campaign_repro_hash(signature));
    }
}

/* Runs `c` and classifies it. */
static bool campaign_repro_run(harness_backend *b, gm_compare level, const gm_case *c,
                               harness_run_result *r, triage_finding *f, gm_error *err) {
    harness_run_result_free(r);
    harness_run_result_init(r);
    if (!harness_run_case(b, c, level, r, err)) {
        return false;
    }
    triage_classify(c, r, f);
    return true;
}

/* Whether a run of the case classified as `f` is still `sig`: its
 * signature, and its bucket too (a failure file is kept per signature and
 * bucket: a replay whose relation moved, reads through a dropped guard
 * that now see other garbage, is another bucket's finding, and a
 * reproducer named after one bucket must hold that bucket's case). A
 * signature without a bucket (an old failure file) is matched by its
 * signature alone. */
static bool campaign_repro_same(const campaign_signature *sig, const triage_finding *f) {
    return strcmp(f->signature, sig->signature) == 0 &&
           (sig->bucket[0] == '\0' || strcmp(f->bucket, sig->bucket) == 0);
}

/* "SIG" or, when only the bucket moved, "SIG in BUCKET". */
static void campaign_repro_say_now(const campaign_signature *sig, const triage_finding *f,
                                   const char *what, campaign_repro *out) {
    if (strcmp(f->signature, sig->signature) != 0) {
        snprintf(out->note, sizeof out->note, "%s %s", what, f->signature);
    } else {
        snprintf(out->note, sizeof out->note, "%s %.200s in %.200s", what, f->signature,
                 f->bucket);
    }
}

static double campaign_repro_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* out->path: DIR/repros/<slug>.json, bucket first ("<bucket>..<signature>":
 * a bucket's files sort together); false (a note) when it is too long. */
static bool campaign_repro_path(const campaign_setup *s, const campaign_signature *sig,
                                campaign_repro *out) {
    char slug[TRIAGE_SIGNATURE_MAX], key[TRIAGE_BUCKET_MAX + TRIAGE_SIGNATURE_MAX + 4];
    snprintf(key, sizeof key, "%s||%s", sig->bucket, sig->signature);
    campaign_repro_slug(sig->bucket[0] != '\0' ? key : sig->signature, slug, sizeof slug);
    if (snprintf(out->path, sizeof out->path, "%s/%s.json", s->repros, slug) >=
        (int)sizeof out->path) {
        snprintf(out->note, sizeof out->note, "%.200s: path too long", s->repros);
        return false;
    }
    return true;
}

void campaign_repro_as_found(const campaign_setup *s, const campaign_signature *sig,
                             campaign_repro *out) {
    memset(out, 0, sizeof *out);
    out->out_of_time = true;
    gm_error err = {0};
    size_t len = 0;
    char *text = NULL;
    bool read = campaign_repro_path(s, sig, out) &&
                gm_textfile_read(sig->smallest, (size_t)1 << 30, &text, &len, &err);
    if (!read || !gm_file_write_atomic(out->path, text, len, &err)) {
        snprintf(out->note, sizeof out->note, "the budget ran out, and its failure file could "
                                              "not be copied: %.300s",
                 err.msg[0] ? err.msg : "path too long");
        out->path[0] = '\0';
    } else {
        snprintf(out->note, sizeof out->note,
                 "not replayed: the minimization's budget ran out (written as found)");
        gm_limits limits;
        gm_limits_default(&limits);
        gm_doc doc;
        gm_doc_init(&doc);
        gm_error read_err = {0};
        if (gm_json_read_file(sig->smallest, &limits, &doc, &read_err)) {
            out->bs_found = out->bs_final = doc.c.bs;
        }
        gm_doc_free(&doc);
    }
    free(text);
}

/* Minimizes `c` (when asked) and writes the reproducer of its final run. */
static bool campaign_repro_shrink_and_write(harness_backend *b, const campaign_setup *s,
                                            const gm_doc *doc, const campaign_signature *sig,
                                            gm_case *c, triage_finding *f, double deadline_s,
                                            campaign_repro *out, gm_error *err) {
    gm_compare level = doc->repro.verdict.compare;
    harness_run_result r;
    harness_run_result_init(&r);
    bool ok = true;
    if (s->opt.minimize && deadline_s > 0.0 && minimize_clock() >= deadline_s) {
        out->out_of_time = true; /* saved as found: nothing is lost */
    } else if (s->opt.minimize) {
        minimize_stats stats = {.max_runs = CAMPAIGN_REPRO_MAX_RUNS,
                                   .deadline_s = deadline_s};
        triage_finding target = *f;
        ok = minimize_case(b, level, &target, c, &stats, err);
        out->runs = stats.runs;
        out->out_of_time = stats.out_of_time;
        out->minimized = ok && !stats.out_of_time;
    }
    ok = ok && campaign_repro_run(b, level, c, &r, f, err);
    bool same = ok && campaign_repro_same(sig, f);
    if (ok && !same) {
        /* Not written under a name it no longer has: the failure file
         * stays the signature's representative. */
        campaign_repro_say_now(sig, f, "minimized case replays as", out);
    }
    out->bs_final = c->bs;
    ok = same && campaign_repro_path(s, sig, out);
    repro_origin origin = {campaign_engine_name(s->opt.engine), sig->first_execs,
                              out->minimized, doc->repro.found_at, harness_backend_identity(b)};
    if (ok && !repro_write(out->path, c, &r, f, harness_backend_kind_of(b), &origin, err)) {
        snprintf(out->note, sizeof out->note, "cannot write: %.400s", err->msg);
        gm_error_clear(err);
        ok = false;
    }
    if (!ok) {
        out->path[0] = '\0';
    }
    harness_run_result_free(&r);
    return err->code == GM_ERR_NONE;
}

bool campaign_repro_make(harness_backend *b, const campaign_setup *s, const campaign_signature *sig,
                         double deadline_s, campaign_repro *out, gm_error *err) {
    memset(out, 0, sizeof *out);
    double t0 = campaign_repro_now();
    gm_limits limits;
    gm_limits_default(&limits);
    gm_doc doc;
    gm_doc_init(&doc);
    gm_case c;
    gm_case_init(&c);
    harness_run_result r;
    harness_run_result_init(&r);
    triage_finding f;
    gm_error read_err = {0};
    bool ok = true;
    if (!gm_json_read_file(sig->smallest, &limits, &doc, &read_err) ||
        doc.kind != GM_DOC_REPRO) {
        snprintf(out->note, sizeof out->note, "cannot read it: %.400s", read_err.msg);
    } else if (!gm_case_copy(&c, &doc.c, err) ||
               !campaign_repro_run(b, doc.repro.verdict.compare, &c, &r, &f, err)) {
        ok = false;
    } else {
        out->bs_found = c.bs;
        out->reproduced = campaign_repro_same(sig, &f);
        out->known = triage_baseline_is_known(s->baseline, &f);
        if (!out->reproduced) {
            campaign_repro_say_now(sig, &f, "does not replay: now", out);
        } else {
            ok = campaign_repro_shrink_and_write(b, s, &doc, sig, &c, &f, deadline_s, out, err);
        }
    }
    harness_run_result_free(&r);
    gm_case_free(&c);
    gm_doc_free(&doc);
    out->seconds = campaign_repro_now() - t0;
    return ok;
}
