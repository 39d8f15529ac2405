/* history_retest: every reproducer of a campaign folder or a corpus, run on
 * today's target: still failing (the recorded bucket), fixed (a match) or
 * changed (another bucket). The runs are history_verdict's; this file
 * lists the reproducers and keeps the tally, its table and its record. */
#include "history.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repro.h"

/* A campaign folder's reproducers: one per signature (its minimized one,
 * else its smallest input). *campaign false: not a campaign folder. */
static bool history_retest_campaign(const char *dir, harness_paths *out, bool *campaign,
                                    gm_error *err) {
    repro_rundir rd;
    if (!repro_rundir_load(dir, NULL, &rd, err)) {
        return false;
    }
    *campaign = rd.is_campaign;
    bool ok = true;
    for (size_t i = 0; ok && rd.is_campaign && i < rd.n_sigs; i++) {
        const char *file = rd.sigs[i].repro != NULL ? rd.sigs[i].repro : rd.sigs[i].smallest;
        ok = file == NULL || harness_paths_add(out, file, err);
    }
    repro_rundir_free(&rd);
    return ok;
}

bool history_retest_paths(const char *const *paths, size_t n, harness_paths *out, gm_error *err) {
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        bool campaign = false;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) &&
            !history_retest_campaign(paths[i], out, &campaign, err)) {
            return false;
        }
        if (!campaign && !harness_paths_add(out, paths[i], err)) {
            return false;
        }
    }
    return true;
}

void history_retest_init(history_retest *r) {
    memset(r, 0, sizeof *r);
}

void history_retest_free(history_retest *r) {
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].path);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

bool history_retest_add(history_retest *r, const char *path, const char *target,
                        const history_verdict *v, const char *problem, gm_error *err) {
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        history_retest_item *grown = realloc(r->items, cap * sizeof *grown);
        if (grown == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory");
        }
        r->items = grown;
        r->cap = cap;
    }
    history_retest_item *it = &r->items[r->n];
    memset(it, 0, sizeof *it);
    it->path = strdup(path);
    if (it->path == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory");
    }
    snprintf(it->target, sizeof it->target, "%s", target);
    it->ran = v != NULL;
    if (v != NULL) {
        it->verdict = *v;
        r->count[v->state]++;
    } else {
        snprintf(it->problem, sizeof it->problem, "%s", problem);
        r->problems++;
    }
    r->n++;
    return true;
}

void history_retest_print(const history_retest *r, FILE *to) {
    fprintf(to, "%-13s  %-44s  %s\n", "state", "bucket (recorded -> now)", "reproducer");
    for (size_t i = 0; i < r->n; i++) {
        const history_retest_item *it = &r->items[i];
        if (!it->ran) {
            fprintf(to, "%-13s  %-44s  %s: %s\n", "not_run", "-", it->path, it->problem);
            continue;
        }
        const history_verdict *v = &it->verdict;
        char buckets[2 * TRIAGE_BUCKET_MAX + 8];
        snprintf(buckets, sizeof buckets, "%s%s%s", v->recorded,
                 v->state == HISTORY_CHANGED ? " -> " : "",
                 v->state == HISTORY_CHANGED ? v->now : "");
        fprintf(to, "%-13s  %-44s  %s\n", history_state_name(v->state), buckets, it->path);
    }
    fprintf(to, "%zu reproducers: %zu fixed, %zu still failing, %zu changed", r->n,
            r->count[HISTORY_FIXED], r->count[HISTORY_STILL], r->count[HISTORY_CHANGED]);
    if (r->problems > 0) {
        fprintf(to, ", %zu not run", r->problems);
    }
    fprintf(to, "\n");
}

static cJSON *history_retest_item_json(const history_retest_item *it) {
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    cJSON_AddStringToObject(o, "path", it->path);
    cJSON_AddStringToObject(o, "target", it->target);
    if (!it->ran) {
        cJSON_AddStringToObject(o, "state", "not_run");
        cJSON_AddStringToObject(o, "problem", it->problem);
        return o;
    }
    const history_verdict *v = &it->verdict;
    cJSON_AddStringToObject(o, "state", history_state_name(v->state));
    cJSON_AddStringToObject(o, "recorded_bucket", v->recorded);
    cJSON_AddItemToObject(o, "bucket", v->now[0] ? cJSON_CreateString(v->now) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "signature",
                          v->signature[0] ? cJSON_CreateString(v->signature) : cJSON_CreateNull());
    return o;
}

cJSON *history_retest_json(const history_retest *r) {
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }
    cJSON_AddStringToObject(root, "format", "gmfuzz-retest-v1");
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    if (counts != NULL) {
        cJSON_AddNumberToObject(counts, "fixed", (double)r->count[HISTORY_FIXED]);
        cJSON_AddNumberToObject(counts, "still_failing", (double)r->count[HISTORY_STILL]);
        cJSON_AddNumberToObject(counts, "changed", (double)r->count[HISTORY_CHANGED]);
        cJSON_AddNumberToObject(counts, "not_run", (double)r->problems);
    }
    cJSON *items = cJSON_AddArrayToObject(root, "reproducers");
    for (size_t i = 0; items != NULL && i < r->n; i++) {
        cJSON_AddItemToArray(items, history_retest_item_json(&r->items[i]));
    }
    return root;
}
