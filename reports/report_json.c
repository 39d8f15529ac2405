#include "report_json.h"

#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "gm_json.h"
#include "report_link.h"
#include "report_sources.h"

#ifndef GMFUZZ_VERSION
#error "GMFUZZ_VERSION must be defined by the build (reports/CMakeLists.txt)"
#endif

/* Every add goes through these: a failed allocation clears `ok` and the
 * document is dropped at the end, never written half-built. */
static void report_json_put(cJSON *obj, const char *key, cJSON *item, bool *ok) {
    if (item == NULL || !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        *ok = false;
    }
}

static cJSON *report_json_u64(uint64_t v) {
    return gm_json_int(v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* A string, or null for NULL and "". */
static cJSON *report_json_str(const char *s) {
    return s != NULL && s[0] != '\0' ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *report_json_campaign(const repro_rundir_campaign *c) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    report_json_put(o, "engine", report_json_str(c->engine), &ok);
    report_json_put(o, "backend", report_json_str(c->backend), &ok);
    report_json_put(o, "compare", report_json_str(c->compare), &ok);
    report_json_put(o, "strict_baseline", cJSON_CreateBool(c->strict_baseline), &ok);
    report_json_put(o, "jobs", cJSON_CreateNumber(c->jobs), &ok);
    report_json_put(o, "budget_s", cJSON_CreateNumber(c->budget_s), &ok);
    report_json_put(o, "started_at", report_json_str(c->started_at), &ok);
    report_json_put(o, "ended_at", report_json_str(c->ended_at), &ok);
    report_json_put(o, "elapsed_s", cJSON_CreateNumber(c->elapsed_s), &ok);
    report_json_put(o, "execs", report_json_u64(c->execs), &ok);
    report_json_put(o, "coverage", report_json_u64(c->coverage), &ok);
    report_json_put(o, "corpus", report_json_u64(c->corpus), &ok);
    report_json_put(o, "restarts", cJSON_CreateNumber(c->restarts), &ok);
    report_json_put(o, "target_restarts_crashed", report_json_u64(c->target_restarts_crashed), &ok);
    report_json_put(o, "target_restarts_hung", report_json_u64(c->target_restarts_hung), &ok);
    report_json_put(o, "target_unreliable_crashed", report_json_u64(c->target_unreliable_crashed),
                    &ok);
    report_json_put(o, "target_unreliable_hung", report_json_u64(c->target_unreliable_hung), &ok);
    report_json_put(o, "target_compiles", report_json_u64(c->target_compiles), &ok);
    report_json_put(o, "target_loads", report_json_u64(c->target_loads), &ok);
    report_json_put(o, "target_jit_ms", report_json_u64(c->target_jit_ms), &ok);
    report_json_put(o, "target_classes", report_json_u64(c->target_classes), &ok);
    report_json_put(o, "target_held", report_json_u64(c->target_held), &ok);
    report_json_put(o, "interrupted", cJSON_CreateBool(c->interrupted), &ok);
    report_json_put(o, "problem", report_json_str(c->problem), &ok);
    report_json_put(o, "exit_code", cJSON_CreateNumber(c->exit_code), &ok);
    report_json_put(o, "baseline", report_json_str(c->baseline), &ok);
    report_json_put(o, "tool_version", report_json_str(c->tool_version), &ok);
    report_json_put(o, "host", report_json_str(c->host), &ok);
    if (c->n_sources > 0) { /* a merged folder (gmfuzz merge) */
        report_json_put(o, "corpus_merge", report_json_str(c->corpus_merge), &ok);
        report_json_put(o, "sources", report_sources_json(c), &ok);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *report_json_sample(const repro_rundir_sample *s) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    report_json_put(o, "t", cJSON_CreateNumber(s->t), &ok);
    report_json_put(o, "execs", report_json_u64(s->execs), &ok);
    report_json_put(o, "exec_per_sec", report_json_u64(s->exec_per_sec), &ok);
    report_json_put(o, "coverage", report_json_u64(s->coverage), &ok);
    report_json_put(o, "corpus", report_json_u64(s->corpus), &ok);
    report_json_put(o, "signatures", report_json_u64(s->signatures), &ok);
    report_json_put(o, "failures", report_json_u64(s->failures), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The samples, in order; NULL when memory runs out. */
static cJSON *report_json_samples(const repro_rundir *r) {
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list != NULL && i < r->n_samples; i++) {
        cJSON *item = report_json_sample(&r->samples[i]);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* Names of the set bits of `bits`, `name(k)` for each. */
static cJSON *report_json_names(unsigned bits, int count, const char *(*name)(int)) {
    cJSON *list = cJSON_CreateArray();
    for (int k = 0; list != NULL && k < count; k++) {
        cJSON *item = (bits & (1u << k)) != 0 ? cJSON_CreateString(name(k)) : NULL;
        if ((bits & (1u << k)) != 0 && (item == NULL || !cJSON_AddItemToArray(list, item))) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

static const char *report_json_class_name(int k) {
    return triage_class_name((triage_class)k);
}

static const char *report_json_buf_name(int k) {
    return gm_buf_name((gm_buf_id)k);
}

static cJSON *report_json_classes(const repro_rundir *r) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; o != NULL && k < TRIAGE_CLASS_COUNT; k++) {
        report_json_put(o, triage_class_name((triage_class)k),
                        cJSON_CreateNumber((double)r->class_inputs[k]), &ok);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *report_json_baseline(const triage_baseline_entry *e) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    report_json_put(o, "known", cJSON_CreateBool(e->known), &ok);
    report_json_put(o, "by_signature", cJSON_CreateBool(e->known && e->by_signature), &ok);
    cJSON *decision = e->known ? cJSON_CreateString(triage_decision_name(e->decision))
                               : cJSON_CreateNull();
    report_json_put(o, "decision", decision, &ok);
    report_json_put(o, "explanation", report_json_str(e->known ? e->explanation : NULL), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* A file of the folder as a path relative to `out_dir` (null: none). */
static cJSON *report_json_path(const char *out_dir, const char *file) {
    if (file == NULL) {
        return cJSON_CreateNull();
    }
    char *rel = report_link_relative(out_dir, file);
    cJSON *item = rel != NULL ? cJSON_CreateString(rel) : NULL;
    free(rel);
    return item;
}

static void report_json_sig_finding(cJSON *o, const repro_rundir_signature *s, bool *ok) {
    report_json_put(o, "signature", cJSON_CreateString(s->finding.signature), ok);
    report_json_put(o, "new", cJSON_CreateBool(!s->baseline.known), ok);
    report_json_put(o, "mode", cJSON_CreateString(gm_mode_name(s->finding.mode)), ok);
    report_json_put(o, "status", cJSON_CreateString(gm_status_name(s->finding.status)), ok);
    report_json_put(o, "classes",
                    report_json_names(s->finding.classes, TRIAGE_CLASS_COUNT, report_json_class_name),
                    ok);
    report_json_put(o, "buffers",
                    report_json_names(s->finding.buffers, GM_BUF_COUNT, report_json_buf_name), ok);
}

static cJSON *report_json_signature(const repro_rundir *r, const repro_rundir_signature *s,
                                    const char *out_dir) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    report_json_sig_finding(o, s, &ok);
    report_json_put(o, "bucket",
                    r->n_buckets > 0 ? cJSON_CreateString(r->buckets[s->bucket].key)
                                     : cJSON_CreateNull(),
                    &ok);
    report_json_put(o, "count", cJSON_CreateNumber((double)s->count), &ok);
    report_json_put(o, "first_seen", report_json_str(s->first_seen), &ok);
    report_json_put(o, "last_seen", report_json_str(s->last_seen), &ok);
    report_json_put(o, "first_execs", report_json_u64(s->first_execs), &ok);
    report_json_put(o, "repro", report_json_path(out_dir, s->repro), &ok);
    report_json_put(o, "smallest", report_json_path(out_dir, s->smallest), &ok);
    report_json_put(o, "smallest_bytes", gm_json_int(s->smallest_bytes), &ok);
    report_json_put(o, "smallest_bs", gm_json_int(s->smallest_bs), &ok);
    report_json_put(o, "first_difference", gm_json_difference(&s->first_difference), &ok);
    report_json_put(o, "baseline", report_json_baseline(&s->baseline), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *report_json_signatures(const report_view *v, const char *out_dir) {
    cJSON *list = cJSON_CreateArray();
    for (size_t k = 0; list != NULL && k < v->run->n_sigs; k++) {
        cJSON *item = report_json_signature(v->run, report_view_sig(v, k), out_dir);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* {"bucket", "new", "signatures": [...], "inputs", "smallest", "baseline"}:
 * one root cause, the new ones first. */
static cJSON *report_json_bucket(const report_view *v, const repro_rundir_bucket *b,
                                 const char *out_dir) {
    const repro_rundir *r = v->run;
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    cJSON *sigs = cJSON_CreateArray();
    for (size_t j = 0; sigs != NULL && j < b->n_sigs; j++) {
        cJSON *name = cJSON_CreateString(r->sigs[b->sigs[j]].finding.signature);
        if (name == NULL || !cJSON_AddItemToArray(sigs, name)) {
            cJSON_Delete(name);
            ok = false;
        }
    }
    if (o == NULL) {
        cJSON_Delete(sigs);
        return NULL;
    }
    const repro_rundir_signature *small = &r->sigs[b->smallest];
    report_json_put(o, "bucket", cJSON_CreateString(b->key), &ok);
    report_json_put(o, "new", cJSON_CreateBool(b->fresh), &ok);
    report_json_put(o, "signatures", sigs, &ok);
    report_json_put(o, "inputs", cJSON_CreateNumber((double)b->inputs), &ok);
    const char *file = small->repro != NULL ? small->repro : small->smallest;
    report_json_put(o, "smallest", report_json_path(out_dir, file), &ok);
    report_json_put(o, "smallest_bs", gm_json_int(small->smallest_bs), &ok);
    report_json_put(o, "baseline", b->baseline.known ? report_json_baseline(&b->baseline)
                                                     : cJSON_CreateNull(),
                    &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *report_json_buckets(const report_view *v, const char *out_dir) {
    cJSON *list = cJSON_CreateArray();
    for (size_t b = 0; list != NULL && b < v->run->n_buckets; b++) {
        cJSON *item = report_json_bucket(v, &v->run->buckets[b], out_dir);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

static cJSON *report_json_verdict(const report_view *v) {
    const repro_rundir *r = v->run;
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    const char *result = v->n_new > 0 ? "new" : (r->n_sigs > 0 ? "known" : "nothing_found");
    report_json_put(o, "result", cJSON_CreateString(result), &ok);
    report_json_put(o, "signatures", cJSON_CreateNumber((double)r->n_sigs), &ok);
    report_json_put(o, "new", cJSON_CreateNumber((double)v->n_new), &ok);
    report_json_put(o, "known", cJSON_CreateNumber((double)(r->n_sigs - v->n_new)), &ok);
    report_json_put(o, "triaged", cJSON_CreateNumber((double)v->n_triaged), &ok);
    report_json_put(o, "buckets", cJSON_CreateNumber((double)r->n_buckets), &ok);
    report_json_put(o, "new_buckets", cJSON_CreateNumber((double)repro_rundir_new_buckets(r)), &ok);
    report_json_put(o, "inputs", cJSON_CreateNumber((double)r->inputs), &ok);
    report_json_put(o, "unreadable", cJSON_CreateNumber((double)r->unreadable), &ok);
    report_json_put(o, "last_problem", report_json_str(r->unreadable > 0 ? r->last_problem : NULL),
                    &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *report_json_document(const report_view *v, const char *out_dir) {
    const repro_rundir *r = v->run;
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }
    report_json_put(root, "format", cJSON_CreateString("gmfuzz-summary-v1"), &ok);
    report_json_put(root, "tool_version", cJSON_CreateString("gmfuzz " GMFUZZ_VERSION), &ok);
    report_json_put(root, "folder", report_json_str(r->path), &ok);
    report_json_put(root, "is_campaign", cJSON_CreateBool(r->is_campaign), &ok);
    report_json_put(root, "verdict", report_json_verdict(v), &ok);
    report_json_put(root, "campaign",
                    r->campaign.present ? report_json_campaign(&r->campaign) : cJSON_CreateNull(),
                    &ok);
    report_json_put(root, "classes", report_json_classes(r), &ok);
    report_json_put(root, "samples", report_json_samples(r), &ok);
    report_json_put(root, "buckets", report_json_buckets(v, out_dir), &ok);
    report_json_put(root, "signatures", report_json_signatures(v, out_dir), &ok);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

void report_json_build(const report_view *v, const char *out_dir, report_text *out) {
    cJSON *root = report_json_document(v, out_dir);
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    if (text == NULL) {
        out->failed = true;
    } else {
        report_text_put(out, text);
        report_text_putc(out, '\n');
    }
    cJSON_free(text);
    cJSON_Delete(root);
}
