#include "campaign_merge_record.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gm_json.h"
#include "harness.h"
#include "gm_file.h"

#ifndef GMFUZZ_VERSION
#error "GMFUZZ_VERSION must be defined by the build (campaign/CMakeLists.txt)"
#endif

bool campaign_merge_record_sources(const campaign_merge_options *o, campaign_merge_source *src,
                                   size_t n, gm_error *err) {
    char top[CAMPAIGN_PATH_MAX], dir[CAMPAIGN_PATH_MAX], from[CAMPAIGN_PATH_MAX],
        to[CAMPAIGN_PATH_MAX];
    struct stat st;
    for (size_t k = 0; k < n; k++) {
        if (!campaign_merge_join(top, o->out, "sources", err) ||
            !campaign_merge_join(dir, top, src[k].name, err) || !gm_file_make_dirs(dir, err) ||
            !campaign_merge_join(from, src[k].path, "campaign.json", err) ||
            !campaign_merge_join(to, dir, "campaign.json", err) ||
            !campaign_merge_copy_file(from, to, err) ||
            !campaign_merge_join(from, src[k].path, "stats.jsonl", err) ||
            !campaign_merge_join(to, dir, "stats.jsonl", err)) {
            return false;
        }
        src[k].has_stats = stat(from, &st) == 0 && S_ISREG(st.st_mode);
        if (src[k].has_stats && !campaign_merge_copy_file(from, to, err)) {
            return false;
        }
    }
    return true;
}

static void campaign_merge_record_add(cJSON *o, const char *key, cJSON *item, bool *ok) {
    if (item == NULL || !cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        *ok = false;
    }
}

static cJSON *campaign_merge_record_str(const char *s) {
    return s != NULL && s[0] != '\0' ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *campaign_merge_record_u64(uint64_t v) {
    return gm_json_int(v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* One "sources" entry. */
static cJSON *campaign_merge_record_source(const campaign_merge_source *s) {
    const repro_rundir_campaign *c = &s->record;
    char rel[300];
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    campaign_merge_record_add(o, "path", cJSON_CreateString(s->path), &ok);
    campaign_merge_record_add(o, "host", campaign_merge_record_str(c->host), &ok);
    campaign_merge_record_add(o, "engine", campaign_merge_record_str(c->engine), &ok);
    campaign_merge_record_add(o, "backend", campaign_merge_record_str(c->backend), &ok);
    campaign_merge_record_add(o, "jobs", cJSON_CreateNumber(c->jobs), &ok);
    campaign_merge_record_add(o, "started_at", campaign_merge_record_str(c->started_at), &ok);
    campaign_merge_record_add(o, "ended_at", campaign_merge_record_str(c->ended_at), &ok);
    campaign_merge_record_add(o, "elapsed_s", cJSON_CreateNumber(c->elapsed_s), &ok);
    campaign_merge_record_add(o, "execs", campaign_merge_record_u64(c->execs), &ok);
    campaign_merge_record_add(o, "coverage", campaign_merge_record_u64(c->coverage), &ok);
    campaign_merge_record_add(o, "corpus", campaign_merge_record_u64(c->corpus), &ok);
    campaign_merge_record_add(o, "signatures", campaign_merge_record_u64(s->signatures), &ok);
    campaign_merge_record_add(o, "buckets", campaign_merge_record_u64(s->buckets), &ok);
    campaign_merge_record_add(o, "inputs", campaign_merge_record_u64(s->inputs), &ok);
    campaign_merge_record_add(o, "exit_code", c->exit_code < 0 ? cJSON_CreateNull()
                                                              : cJSON_CreateNumber(c->exit_code),
                              &ok);
    snprintf(rel, sizeof rel, "sources/%s/campaign.json", s->name);
    campaign_merge_record_add(o, "record", cJSON_CreateString(rel), &ok);
    snprintf(rel, sizeof rel, "sources/%s/stats.jsonl", s->name);
    campaign_merge_record_add(o, "stats", s->has_stats ? cJSON_CreateString(rel)
                                                       : cJSON_CreateNull(), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *campaign_merge_record_sources_json(const campaign_merge_source *src, size_t n) {
    cJSON *list = cJSON_CreateArray();
    for (size_t k = 0; list != NULL && k < n; k++) {
        cJSON *item = campaign_merge_record_source(&src[k]);
        if (item == NULL || !cJSON_AddItemToArray(list, item)) {
            cJSON_Delete(item);
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

static cJSON *campaign_merge_record_corpus(const campaign_merge_corpus_result *c) {
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }
    campaign_merge_record_add(o, "method", cJSON_CreateString(c->by_libfuzzer ? "libfuzzer"
                                                                                : "union"), &ok);
    campaign_merge_record_add(o, "binary", campaign_merge_record_str(c->binary), &ok);
    campaign_merge_record_add(o, "note", campaign_merge_record_str(c->note), &ok);
    campaign_merge_record_add(o, "files_in", campaign_merge_record_u64(c->files_in), &ok);
    campaign_merge_record_add(o, "files_out", campaign_merge_record_u64(c->files_out), &ok);
    campaign_merge_record_add(o, "new_features", c->new_features < 0 ? cJSON_CreateNull()
                                                  : gm_json_int(c->new_features), &ok);
    campaign_merge_record_add(o, "new_edges", c->new_edges < 0 ? cJSON_CreateNull()
                                               : gm_json_int(c->new_edges), &ok);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* A text field over the sources: theirs when they agree, else "mixed". */
static const char *campaign_merge_record_common(const campaign_merge_source *src, size_t n,
                                                size_t offset) {
    const char *first = (const char *)&src[0].record + offset;
    for (size_t k = 1; k < n; k++) {
        if (strcmp(first, (const char *)&src[k].record + offset) != 0) {
            return "mixed";
        }
    }
    return first;
}

/* The sums, the earliest start, the latest end, the longest run. */
static void campaign_merge_record_totals(cJSON *root, const campaign_merge_source *src, size_t n,
                                         bool *ok) {
    uint64_t execs = 0, restarts = 0;
    int jobs = 0;
    double elapsed = 0, budget = 0;
    bool strict = true, interrupted = false;
    const char *started = src[0].record.started_at, *ended = src[0].record.ended_at;
    for (size_t k = 0; k < n; k++) {
        const repro_rundir_campaign *c = &src[k].record;
        execs += c->execs;
        restarts += c->restarts;
        jobs += c->jobs;
        elapsed = c->elapsed_s > elapsed ? c->elapsed_s : elapsed;
        budget = c->budget_s > budget ? c->budget_s : budget;
        strict = strict && c->strict_baseline;
        interrupted = interrupted || c->interrupted;
        started = c->started_at[0] && (!started[0] || strcmp(c->started_at, started) < 0)
                      ? c->started_at : started;
        ended = strcmp(c->ended_at, ended) > 0 ? c->ended_at : ended;
    }
    campaign_merge_record_add(root, "strict_baseline", cJSON_CreateBool(strict), ok);
    campaign_merge_record_add(root, "jobs", cJSON_CreateNumber(jobs), ok);
    campaign_merge_record_add(root, "budget_s", cJSON_CreateNumber(budget), ok);
    campaign_merge_record_add(root, "started_at", campaign_merge_record_str(started), ok);
    campaign_merge_record_add(root, "ended_at", campaign_merge_record_str(ended), ok);
    campaign_merge_record_add(root, "elapsed_s", cJSON_CreateNumber(elapsed), ok);
    campaign_merge_record_add(root, "execs", campaign_merge_record_u64(execs), ok);
    campaign_merge_record_add(root, "restarts", campaign_merge_record_u64(restarts), ok);
    campaign_merge_record_add(root, "interrupted", cJSON_CreateBool(interrupted), ok);
}

/* Coverage: libFuzzer's count of the merged corpus's edges, else the best
 * source's own counter. */
static uint64_t campaign_merge_record_coverage(const campaign_merge_source *src, size_t n,
                                               const campaign_merge_corpus_result *c) {
    uint64_t best = 0;
    for (size_t k = 0; k < n; k++) {
        best = src[k].record.coverage > best ? src[k].record.coverage : best;
    }
    return c->new_edges >= 0 ? (uint64_t)c->new_edges : best;
}

static void campaign_merge_record_outcome_json(cJSON *root, const campaign_merge_source *src,
                                               size_t n, const campaign_merge_record_outcome *how,
                                               bool *ok) {
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0) {
        host[0] = '\0';
    }
    host[sizeof host - 1] = '\0';
    campaign_merge_record_add(root, "coverage", campaign_merge_record_u64(
                                  campaign_merge_record_coverage(src, n, how->corpus)), ok);
    campaign_merge_record_add(root, "corpus", campaign_merge_record_u64(how->corpus->files_out),
                              ok);
    campaign_merge_record_add(root, "signatures",
                              campaign_merge_record_u64(how->failures->signatures), ok);
    campaign_merge_record_add(root, "buckets", campaign_merge_record_u64(how->buckets), ok);
    campaign_merge_record_add(root, "problem", campaign_merge_record_str(how->problem), ok);
    campaign_merge_record_add(root, "exit_code", cJSON_CreateNumber(how->exit_code), ok);
    campaign_merge_record_add(root, "baseline", campaign_merge_record_str(src[0].record.baseline),
                              ok);
    campaign_merge_record_add(root, "tool_version", cJSON_CreateString("gmfuzz " GMFUZZ_VERSION),
                              ok);
    campaign_merge_record_add(root, "host", campaign_merge_record_str(host), ok);
    campaign_merge_record_add(root, "corpus_merge", campaign_merge_record_corpus(how->corpus), ok);
    campaign_merge_record_add(root, "sources", campaign_merge_record_sources_json(src, n), ok);
}

bool campaign_merge_record_write(const campaign_merge_options *o, const campaign_merge_source *src,
                                 size_t n, const campaign_merge_record_outcome *how,
                                 gm_error *err) {
    char path[CAMPAIGN_PATH_MAX];
    bool ok = true;
    if (!campaign_merge_join(path, o->out, "campaign.json", err)) {
        return false;
    }
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    campaign_merge_record_add(root, "format", cJSON_CreateString("gmfuzz-campaign-v1"), &ok);
    campaign_merge_record_add(root, "merged", cJSON_CreateBool(true), &ok);
    campaign_merge_record_add(root, "engine", cJSON_CreateString(campaign_merge_record_common(
                                  src, n, offsetof(repro_rundir_campaign, engine))), &ok);
    campaign_merge_record_add(root, "backend", cJSON_CreateString(campaign_merge_record_common(
                                  src, n, offsetof(repro_rundir_campaign, backend))), &ok);
    campaign_merge_record_add(root, "compare", cJSON_CreateString(campaign_merge_record_common(
                                  src, n, offsetof(repro_rundir_campaign, compare))), &ok);
    campaign_merge_record_totals(root, src, n, &ok);
    campaign_merge_record_outcome_json(root, src, n, how, &ok);
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    ok = ok && gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    return ok;
}
