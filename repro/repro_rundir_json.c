#include "repro.h"

#include <stdbool.h>

#include "gm_json.h"
#include "gm_jsonint.h"

/* Adds `item` to `obj` under `key`; false (and `item` freed) on failure. */
static bool repro_rundir_json_add(cJSON *obj, const char *key, cJSON *item) {
    if (item == NULL || !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* A string, or null for NULL and "" (a time never recorded). */
static cJSON *repro_rundir_json_text(const char *s) {
    return s != NULL && s[0] != '\0' ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* The names of the set bits of `mask`: classes or buffers. */
static cJSON *repro_rundir_json_names(unsigned mask, int count, bool classes) {
    cJSON *list = cJSON_CreateArray();
    for (int k = 0; list != NULL && k < count; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        const char *name = classes ? triage_class_name((triage_class)k) : gm_buf_name((gm_buf_id)k);
        cJSON *item = cJSON_CreateString(name);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* What the baseline says: new, or the decision and why. */
static bool repro_rundir_json_baseline(cJSON *obj, const triage_baseline_entry *e) {
    const char *decision = e->known ? triage_decision_name(e->decision) : NULL;
    return repro_rundir_json_add(obj, "new", cJSON_CreateBool(!e->known)) &&
           repro_rundir_json_add(obj, "decision", repro_rundir_json_text(decision)) &&
           repro_rundir_json_add(obj, "by_signature", cJSON_CreateBool(e->by_signature)) &&
           repro_rundir_json_add(obj, "explanation", repro_rundir_json_text(e->explanation));
}

static bool repro_rundir_json_finding(cJSON *obj, const triage_finding *f) {
    return repro_rundir_json_add(obj, "mode", cJSON_CreateString(gm_mode_name(f->mode))) &&
           repro_rundir_json_add(obj, "status", cJSON_CreateString(gm_status_name(f->status))) &&
           repro_rundir_json_add(obj, "classes",
                                 repro_rundir_json_names(f->classes, TRIAGE_CLASS_COUNT, true)) &&
           repro_rundir_json_add(obj, "buffers", repro_rundir_json_names(f->buffers, GM_BUF_COUNT,
                                                                   false));
}

static bool repro_rundir_json_seen(cJSON *obj, const repro_rundir_signature *s) {
    return repro_rundir_json_add(obj, "count", gm_jsonint_create_u64(s->count)) &&
           repro_rundir_json_add(obj, "first_seen", repro_rundir_json_text(s->first_seen)) &&
           repro_rundir_json_add(obj, "last_seen", repro_rundir_json_text(s->last_seen)) &&
           repro_rundir_json_add(obj, "first_execs", gm_jsonint_create_u64(s->first_execs));
}

static bool repro_rundir_json_files(cJSON *obj, const repro_rundir_signature *s) {
    return repro_rundir_json_add(obj, "repro", repro_rundir_json_text(s->repro)) &&
           repro_rundir_json_add(obj, "smallest", repro_rundir_json_text(s->smallest)) &&
           repro_rundir_json_add(obj, "smallest_bytes", gm_jsonint_create(s->smallest_bytes)) &&
           repro_rundir_json_add(obj, "smallest_bs", gm_jsonint_create(s->smallest_bs)) &&
           repro_rundir_json_add(obj, "first_difference",
                                 gm_json_difference(&s->first_difference)) &&
           repro_rundir_json_add(obj, "stale", repro_rundir_json_text(s->stale));
}

static cJSON *repro_rundir_json_signature(const repro_rundir_signature *s) {
    cJSON *obj = cJSON_CreateObject();
    bool ok = obj != NULL &&
              repro_rundir_json_add(obj, "signature", cJSON_CreateString(s->finding.signature)) &&
              repro_rundir_json_baseline(obj, &s->baseline) &&
              repro_rundir_json_finding(obj, &s->finding) && repro_rundir_json_seen(obj, s) &&
              repro_rundir_json_files(obj, s);
    if (!ok) {
        cJSON_Delete(obj);
        return NULL;
    }
    return obj;
}

static cJSON *repro_rundir_json_signatures(const repro_rundir *r) {
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list != NULL && i < r->n_sigs; i++) {
        cJSON *item = repro_rundir_json_signature(&r->sigs[i]);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* [{"bucket", "new", "signatures": [...], "inputs", "smallest"}]: new first. */
static cJSON *repro_rundir_json_bucket(const repro_rundir *r, const repro_rundir_bucket *b) {
    cJSON *o = cJSON_CreateObject();
    cJSON *sigs = cJSON_CreateArray();
    bool ok = o != NULL && sigs != NULL;
    for (size_t j = 0; ok && j < b->n_sigs; j++) {
        cJSON *name = cJSON_CreateString(r->sigs[b->sigs[j]].finding.signature);
        ok = name != NULL && cJSON_AddItemToArray(sigs, name);
        if (!ok) {
            cJSON_Delete(name);
        }
    }
    if (!ok || !repro_rundir_json_add(o, "signatures", sigs)) {
        cJSON_Delete(ok ? NULL : sigs);
        cJSON_Delete(o);
        return NULL;
    }
    ok = repro_rundir_json_add(o, "bucket", cJSON_CreateString(b->key)) &&
         repro_rundir_json_add(o, "new", cJSON_CreateBool(b->fresh)) &&
         repro_rundir_json_add(o, "inputs", gm_jsonint_create_u64(b->inputs)) &&
         repro_rundir_json_add(o, "smallest", cJSON_CreateString(r->sigs[b->smallest].smallest));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *repro_rundir_json_buckets(const repro_rundir *r) {
    cJSON *list = cJSON_CreateArray();
    for (size_t b = 0; list != NULL && b < r->n_buckets; b++) {
        cJSON *item = repro_rundir_json_bucket(r, &r->buckets[b]);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* {"<class>": inputs naming it, ...} for every class. */
static cJSON *repro_rundir_json_classes(const repro_rundir *r) {
    cJSON *obj = cJSON_CreateObject();
    for (int k = 0; obj != NULL && k < TRIAGE_CLASS_COUNT; k++) {
        if (!repro_rundir_json_add(obj, triage_class_name((triage_class)k),
                                gm_jsonint_create_u64(r->class_inputs[k]))) {
            cJSON_Delete(obj);
            return NULL;
        }
    }
    return obj;
}

static bool repro_rundir_json_totals(cJSON *root, const repro_rundir *r) {
    return repro_rundir_json_add(root, "n_signatures", gm_jsonint_create_u64(r->n_sigs)) &&
           repro_rundir_json_add(root, "new", gm_jsonint_create_u64(repro_rundir_new(r))) &&
           repro_rundir_json_add(root, "stale", gm_jsonint_create_u64(repro_rundir_stale(r))) &&
           repro_rundir_json_add(root, "inputs", gm_jsonint_create_u64(r->inputs)) &&
           repro_rundir_json_add(root, "unreadable", gm_jsonint_create_u64(r->unreadable)) &&
           repro_rundir_json_add(root, "last_problem", repro_rundir_json_text(r->last_problem)) &&
           repro_rundir_json_add(root, "class_inputs", repro_rundir_json_classes(r));
}

cJSON *repro_rundir_json(const repro_rundir *r, const char *baseline_path) {
    cJSON *root = cJSON_CreateObject();
    bool ok = root != NULL &&
              repro_rundir_json_add(root, "format", cJSON_CreateString(REPRO_RUNDIR_JSON_FORMAT)) &&
              repro_rundir_json_add(root, "dir", cJSON_CreateString(r->path)) &&
              repro_rundir_json_add(root, "run_folder", cJSON_CreateBool(r->is_campaign)) &&
              repro_rundir_json_add(root, "baseline", repro_rundir_json_text(baseline_path)) &&
              repro_rundir_json_totals(root, r) &&
              repro_rundir_json_add(root, "n_buckets", gm_jsonint_create_u64(r->n_buckets)) &&
              repro_rundir_json_add(root, "new_buckets",
                                 gm_jsonint_create_u64(repro_rundir_new_buckets(r))) &&
              repro_rundir_json_add(root, "buckets", repro_rundir_json_buckets(r)) &&
              repro_rundir_json_add(root, "signatures", repro_rundir_json_signatures(r));
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
