#include "repro_rundir_sources.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_jsonint.h"

/* A merge of more folders than this is not one a report lists. */
#define REPRO_RUNDIR_SOURCES_MAX 4096

static bool repro_rundir_sources_text(const cJSON *o, const char *key, char *out, size_t size,
                                      gm_error *why) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    if (item == NULL || cJSON_IsNull(item)) {
        return true;
    }
    if (!cJSON_IsString(item) || strlen(item->valuestring) >= size) {
        return gm_error_set(why, GM_ERR_FORMAT, "%s: expected a string of at most %zu bytes or "
                            "null, found %s", key, size - 1, gm_jsonint_type_name(item));
    }
    strcpy(out, item->valuestring);
    return true;
}

static bool repro_rundir_sources_count(const cJSON *o, const char *key, uint64_t *out,
                                       gm_error *why) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    gm_error inner = {0};
    if (item == NULL || gm_jsonint_read_u64(item, out, &inner)) {
        return true;
    }
    return gm_error_set(why, inner.code, "%s: %s", key, inner.msg);
}

static bool repro_rundir_sources_seconds(const cJSON *o, const char *key, double *out,
                                         gm_error *why) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    if (item == NULL) {
        return true;
    }
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || item->valuedouble < 0) {
        return gm_error_set(why, GM_ERR_FORMAT, "%s: expected a number of seconds >= 0, found %s",
                            key, gm_jsonint_type_name(item));
    }
    *out = item->valuedouble;
    return true;
}

static bool repro_rundir_sources_exit(const cJSON *o, int *out, gm_error *why) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, "exit_code");
    int64_t v = -1;
    gm_error inner = {0};
    if (item == NULL || cJSON_IsNull(item)) {
        return true;
    }
    if (!gm_jsonint_read(item, (gm_jsonint_range){"int", INT32_MIN, INT32_MAX, INT32_MIN}, &v, &inner)) {
        return gm_error_set(why, inner.code, "exit_code: %s", inner.msg);
    }
    *out = (int)v;
    return true;
}

static bool repro_rundir_sources_one(const cJSON *o, repro_rundir_source *s, gm_error *why) {
    memset(s, 0, sizeof *s);
    s->exit_code = -1;
    if (!cJSON_IsObject(o)) {
        return gm_error_set(why, GM_ERR_FORMAT, "expected an object, found %s",
                            gm_jsonint_type_name(o));
    }
    return repro_rundir_sources_text(o, "path", s->path, sizeof s->path, why) &&
           repro_rundir_sources_text(o, "host", s->host, sizeof s->host, why) &&
           repro_rundir_sources_text(o, "engine", s->engine, sizeof s->engine, why) &&
           repro_rundir_sources_text(o, "started_at", s->started_at, sizeof s->started_at, why) &&
           repro_rundir_sources_text(o, "ended_at", s->ended_at, sizeof s->ended_at, why) &&
           repro_rundir_sources_seconds(o, "elapsed_s", &s->elapsed_s, why) &&
           repro_rundir_sources_count(o, "execs", &s->execs, why) &&
           repro_rundir_sources_count(o, "signatures", &s->signatures, why) &&
           repro_rundir_sources_count(o, "buckets", &s->buckets, why) &&
           repro_rundir_sources_count(o, "inputs", &s->inputs, why) &&
           repro_rundir_sources_exit(o, &s->exit_code, why);
}

/* "corpus_merge": {"method", "note", ...}: how a merge made its corpus. */
static bool repro_rundir_sources_corpus(const cJSON *root, repro_rundir_campaign *out,
                                        gm_error *why) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "corpus_merge");
    gm_error inner = {0};
    if (o == NULL || cJSON_IsNull(o)) {
        return true;
    }
    if (!cJSON_IsObject(o)) {
        return gm_error_set(why, GM_ERR_FORMAT, "corpus_merge: expected an object, found %s",
                            gm_jsonint_type_name(o));
    }
    return (repro_rundir_sources_text(o, "method", out->corpus_merge, sizeof out->corpus_merge,
                                      &inner) &&
            repro_rundir_sources_text(o, "note", out->corpus_merge_note,
                                      sizeof out->corpus_merge_note, &inner)) ||
           gm_error_set(why, inner.code, "corpus_merge: %s", inner.msg);
}

bool repro_rundir_sources_read(const cJSON *root, repro_rundir_campaign *out, gm_error *why) {
    if (!repro_rundir_sources_corpus(root, out, why)) {
        return false;
    }
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "sources");
    if (list == NULL || cJSON_IsNull(list)) {
        return true;
    }
    int n = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || n > REPRO_RUNDIR_SOURCES_MAX) {
        return gm_error_set(why, GM_ERR_FORMAT, "sources: expected a list of at most %d "
                            "objects, found %s", REPRO_RUNDIR_SOURCES_MAX,
                            gm_jsonint_type_name(list));
    }
    out->sources = calloc((size_t)n + 1, sizeof *out->sources);
    if (out->sources == NULL) {
        return gm_error_set(why, GM_ERR_MEMORY, "sources: out of memory");
    }
    for (int k = 0; k < n; k++) {
        gm_error inner = {0};
        if (!repro_rundir_sources_one(cJSON_GetArrayItem(list, k), &out->sources[k], &inner)) {
            return gm_error_set(why, inner.code, "sources[%d]: %s", k, inner.msg);
        }
        out->n_sources++;
    }
    return true;
}

void repro_rundir_sources_free(repro_rundir_campaign *c) {
    free(c->sources);
    c->sources = NULL;
    c->n_sources = 0;
}
