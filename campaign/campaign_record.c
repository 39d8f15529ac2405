#include "campaign_record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gm_file.h"
#include "gm_json.h"

#ifndef GMFUZZ_VERSION
#error "GMFUZZ_VERSION must be defined by the build (campaign/CMakeLists.txt)"
#endif
#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif

#define CAMPAIGN_RECORD_EMPTY_BASELINE \
    "{\"format\": \"gmfuzz-known-v1\", \"classes\": [], \"signatures\": []}\n"

static bool campaign_record_path(char *out, const char *dir, const char *name, gm_error *err) {
    if (snprintf(out, CAMPAIGN_PATH_MAX, "%s/%s", dir, name) >= CAMPAIGN_PATH_MAX) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", dir);
    }
    return true;
}

/* "2026-11-29T12:00:13Z" */
static void campaign_record_time(time_t t, char *out, size_t size) {
    struct tm utc;
    gmtime_r(&t, &utc);
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

static void campaign_record_add(cJSON *root, const char *key, cJSON *item, bool *ok) {
    if (item == NULL || !cJSON_AddItemToObject(root, key, item)) {
        cJSON_Delete(item);
        *ok = false;
    }
}

static cJSON *campaign_record_u64(uint64_t v) {
    return gm_json_int(v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v);
}

static cJSON *campaign_record_str(const char *s) {
    return s != NULL && s[0] != '\0' ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* How the campaign was asked to run. */
static void campaign_record_setup(cJSON *root, const campaign_setup *s, bool *ok) {
    const campaign_options *o = &s->opt;
    char started[32];
    campaign_record_time(s->start.tv_sec, started, sizeof started);
    campaign_record_add(root, "format", cJSON_CreateString("gmfuzz-campaign-v1"), ok);
    campaign_record_add(root, "engine", cJSON_CreateString(campaign_engine_name(o->engine)), ok);
    campaign_record_add(root, "backend", cJSON_CreateString(o->backend), ok);
    campaign_record_add(root, "compare", cJSON_CreateString(gm_compare_name(o->compare)), ok);
    campaign_record_add(root, "strict_baseline", cJSON_CreateBool(o->strict_baseline), ok);
    campaign_record_add(root, "jobs", cJSON_CreateNumber(o->jobs), ok);
    campaign_record_add(root, "budget_s", cJSON_CreateNumber(o->time_s), ok);
    campaign_record_add(root, "started_at", cJSON_CreateString(started), ok);
    campaign_record_add(root, "baseline", campaign_record_str(s->baseline_src), ok);
    campaign_record_add(root, "tool_version", cJSON_CreateString("gmfuzz " GMFUZZ_VERSION), ok);
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0) {
        host[0] = '\0'; /* the record says null: unknown */
    }
    host[sizeof host - 1] = '\0';
    campaign_record_add(root, "host", campaign_record_str(host), ok);
}

/* Every job run that ended during the campaign, with its cause. */
static cJSON *campaign_record_ends(const campaign_summary *sum) {
    cJSON *list = cJSON_CreateArray();
    bool ok = list != NULL;
    for (size_t i = 0; ok && sum != NULL && i < sum->n_ends; i++) {
        const campaign_run_end *e = &sum->ends[i];
        cJSON *item = cJSON_CreateObject();
        ok = item != NULL && cJSON_AddItemToArray(list, item);
        if (!ok) {
            cJSON_Delete(item);
            break;
        }
        campaign_record_add(item, "job", cJSON_CreateString(e->job), &ok);
        campaign_record_add(item, "run", cJSON_CreateNumber(e->run), &ok);
        campaign_record_add(item, "at_s", cJSON_CreateNumber(e->at_s), &ok);
        campaign_record_add(item, "cause", cJSON_CreateString(e->cause), &ok);
        campaign_record_add(item, "restarted", cJSON_CreateBool(e->restarted), &ok);
    }
    if (!ok) {
        cJSON_Delete(list);
        return NULL;
    }
    return list;
}

/* Which job ran where: an empty list until the campaign ends. */
static cJSON *campaign_record_placement(const campaign_summary *sum) {
    cJSON *list = cJSON_CreateArray();
    bool ok = list != NULL;
    for (int i = 0; ok && sum != NULL && i < sum->n_workers; i++) {
        const campaign_worker *w = &sum->workers[i];
        cJSON *job = campaign_placement_json(&w->placement, w->index, w->name,
                                             campaign_engine_name(sum->setup->opt.engine));
        ok = job != NULL && cJSON_AddItemToArray(list, job);
        if (!ok) {
            cJSON_Delete(job);
        }
    }
    if (!ok) {
        cJSON_Delete(list);
        return NULL;
    }
    return list;
}

/* How it ended; `sum` NULL: it has not (yet). */
static void campaign_record_outcome(cJSON *root, const campaign_summary *sum, bool *ok) {
    char ended[32] = "";
    if (sum != NULL) {
        campaign_record_time(time(NULL), ended, sizeof ended);
    }
    campaign_record_add(root, "ended_at", campaign_record_str(ended), ok);
    campaign_record_add(root, "elapsed_s", cJSON_CreateNumber(sum ? sum->elapsed_s : 0.0), ok);
    campaign_record_add(root, "execs", campaign_record_u64(sum ? sum->execs : 0), ok);
    campaign_record_add(root, "coverage", campaign_record_u64(sum ? sum->coverage : 0), ok);
    campaign_record_add(root, "corpus", campaign_record_u64(sum ? sum->corpus : 0), ok);
    campaign_record_add(root, "restarts", cJSON_CreateNumber(sum ? sum->restarts : 0), ok);
    const campaign_target_tally none = {0}, *t = sum ? &sum->target : &none;
    campaign_record_add(root, "target_restarts_crashed", campaign_record_u64(t->crashed), ok);
    campaign_record_add(root, "target_restarts_hung", campaign_record_u64(t->hung), ok);
    campaign_record_add(root, "target_unreliable_crashed",
                        campaign_record_u64(t->unreliable_crashed), ok);
    campaign_record_add(root, "target_unreliable_hung", campaign_record_u64(t->unreliable_hung),
                        ok);
    campaign_record_add(root, "target_compiles", campaign_record_u64(t->compiles), ok);
    campaign_record_add(root, "target_loads", campaign_record_u64(t->loads), ok);
    campaign_record_add(root, "target_jit_ms", campaign_record_u64(t->jit_ms), ok);
    campaign_record_add(root, "target_classes", campaign_record_u64(t->classes), ok);
    campaign_record_add(root, "target_held", campaign_record_u64(t->held), ok);
    campaign_record_add(root, "torch_cases", campaign_record_u64(t->torch_cases), ok);
    campaign_record_add(root, "torch_calls", campaign_record_u64(t->torch_calls), ok);
    campaign_record_add(root, "torch_ms", campaign_record_u64(t->torch_ms), ok);
    campaign_record_add(root, "torch_job_ms", campaign_record_u64(t->job_ms), ok);
    campaign_record_add(root, "torch_start_ms", campaign_record_u64(t->torch_start_ms), ok);
    /* What was checked (null: the jobs did not say; campaign_checked.h), a
     * call in flight at the end, and the processes left behind. */
    bool counted = t->counted_runs > 0;
    campaign_record_add(root, "checked", counted ? campaign_record_u64(t->checked) : cJSON_CreateNull(), ok);
    campaign_record_add(root, "target_answered",
                        counted ? campaign_record_u64(t->answered) : cJSON_CreateNull(), ok);
    campaign_record_add(root, "in_flight", campaign_record_str(sum ? sum->in_flight : NULL), ok);
    campaign_record_add(root, "left_behind", cJSON_CreateNumber(sum ? sum->left_behind : 0), ok);
    campaign_record_add(root, "interrupted", cJSON_CreateBool(sum && sum->interrupted), ok);
    campaign_record_add(root, "problem", campaign_record_str(sum ? sum->problem : NULL), ok);
    campaign_record_add(root, "exit_code", cJSON_CreateNumber(sum ? sum->exit_code : -1), ok);
    campaign_record_add(root, "job_ends", campaign_record_ends(sum), ok);
    campaign_record_add(root, "placement", campaign_record_placement(sum), ok);
}

static bool campaign_record_campaign(const campaign_setup *s, const campaign_summary *sum,
                                     gm_error *err) {
    char path[CAMPAIGN_PATH_MAX];
    if (!campaign_record_path(path, s->dir, "campaign.json", err)) {
        return false;
    }
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    campaign_record_setup(root, s, &ok);
    campaign_record_outcome(root, sum, &ok);
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    ok = ok && gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    return ok;
}

/* Writes the baseline at `from` (NULL: the empty one) into `out`. */
static bool campaign_record_fill(const char *from, FILE *out) {
    if (from == NULL) {
        return fputs(CAMPAIGN_RECORD_EMPTY_BASELINE, out) != EOF;
    }
    return gm_file_append(out, from);
}

/* Copies the baseline to `to` through a temporary file renamed over it. */
static bool campaign_record_copy(const char *from, const char *to, gm_error *err) {
    gm_file_atomic a;
    if (!gm_file_atomic_begin(&a, to, err)) {
        return false;
    }
    if (!campaign_record_fill(from, a.f)) {
        int saved = errno;
        gm_file_atomic_abort(&a);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot copy the baseline %s there: %s", to,
                            from != NULL ? from : "(empty)", strerror(saved));
    }
    return gm_file_atomic_commit(&a, err);
}

static bool campaign_record_truncate(const char *path, gm_error *err) {
    FILE *f = fopen(path, "w");
    if (f == NULL || fclose(f) != 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    return true;
}

/* DIR/campaign.reserve: CAMPAIGN_RECORD_RESERVE bytes written (not a
 * sparse file) and synced, so that the blocks are really taken. */
static bool campaign_record_reserve(const campaign_setup *s, gm_error *err) {
    char path[CAMPAIGN_PATH_MAX];
    static const char zeros[4096];
    if (!campaign_record_path(path, s->dir, CAMPAIGN_RECORD_RESERVE_NAME, err)) {
        return false;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL;
    for (size_t put = 0; ok && put < CAMPAIGN_RECORD_RESERVE; put += sizeof zeros) {
        ok = fwrite(zeros, 1, sizeof zeros, f) == sizeof zeros;
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    if (f != NULL && fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        remove(path);
        return gm_error_set(err, GM_ERR_IO,
                            "%s: cannot keep %d KiB for the campaign's final record: %s", path,
                            CAMPAIGN_RECORD_RESERVE / 1024, strerror(saved));
    }
    return true;
}

void campaign_record_release_reserve(const campaign_setup *s) {
    char path[CAMPAIGN_PATH_MAX];
    if (campaign_record_path(path, s->dir, CAMPAIGN_RECORD_RESERVE_NAME, NULL)) {
        remove(path);
    }
}

bool campaign_record_start(const campaign_setup *s, gm_error *err) {
    char known[CAMPAIGN_PATH_MAX], stats[CAMPAIGN_PATH_MAX];
    const char *source = s->baseline_src[0] != '\0' ? s->baseline_src : NULL;
    return campaign_record_path(known, s->dir, "known.json", err) &&
           campaign_record_path(stats, s->dir, "stats.jsonl", err) &&
           campaign_record_reserve(s, err) && campaign_record_copy(source, known, err) &&
           campaign_record_truncate(stats, err) && campaign_record_campaign(s, NULL, err);
}

/* A counter as the formats want it: a number up to 2^53, else a string. */
static void campaign_record_count(FILE *f, const char *key, uint64_t v) {
    const char *quote = v > ((uint64_t)1 << 53) ? "\"" : "";
    fprintf(f, ",\"%s\":%s%" PRIu64 "%s", key, quote, v, quote);
}

bool campaign_record_sample(const campaign_setup *s, const campaign_status *st, gm_error *err) {
    char path[CAMPAIGN_PATH_MAX];
    if (!campaign_record_path(path, s->dir, "stats.jsonl", err)) {
        return false;
    }
    /* Opened for each line: every line is complete on disk when this
     * returns, whatever happens to the campaign next. */
    FILE *f = fopen(path, "a");
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot append: %s", path, strerror(errno));
    }
    fprintf(f, "{\"t\":%.2f", st->elapsed_s);
    campaign_record_count(f, "execs", st->execs);
    campaign_record_count(f, "exec_per_sec", st->exec_per_sec);
    campaign_record_count(f, "coverage", st->coverage);
    campaign_record_count(f, "corpus", st->corpus);
    campaign_record_count(f, "signatures", st->signatures);
    campaign_record_count(f, "failures", st->failures);
    fputs("}\n", f);
    bool ok = !ferror(f);
    if (fclose(f) != 0 || !ok) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot append: %s", path, strerror(errno));
    }
    return true;
}

bool campaign_record_end(const campaign_summary *sum, gm_error *err) {
    return campaign_record_campaign(sum->setup, sum, err);
}

static bool campaign_record_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool campaign_record_baseline_for(const char *dir, char *out, size_t size) {
    if (snprintf(out, size, "%s/known.json", dir) < (int)size && campaign_record_is_file(out)) {
        return true;
    }
    if (snprintf(out, size, "%s/corpus/known.json", GMFUZZ_SOURCE_DIR) < (int)size &&
        campaign_record_is_file(out)) {
        return true;
    }
    out[0] = '\0';
    return false;
}
