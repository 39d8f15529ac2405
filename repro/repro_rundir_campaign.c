#include "repro.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gm_json_tree.h"
#include "gm_jsonint.h"
#include "repro_rundir_sources.h"
#include "gm_textfile.h"

/* campaign.json is a few hundred bytes; anything much bigger is not one. */
#define REPRO_RUNDIR_CAMPAIGN_MAX_BYTES ((size_t)1 << 20)

/* How a key's value is stored in repro_rundir_campaign. */
typedef enum {
    REPRO_RUNDIR_CAMPAIGN_TEXT, /* char[size]; null: "" */
    REPRO_RUNDIR_CAMPAIGN_OWNED,   /* char *; null: NULL */
    REPRO_RUNDIR_CAMPAIGN_FLAG, /* bool */
    REPRO_RUNDIR_CAMPAIGN_INT,  /* int >= 0 */
    REPRO_RUNDIR_CAMPAIGN_EXIT, /* int; null: -1 (not ended) */
    REPRO_RUNDIR_CAMPAIGN_SECONDS, /* double >= 0 */
    REPRO_RUNDIR_CAMPAIGN_COUNT,   /* uint64_t */
    REPRO_RUNDIR_CAMPAIGN_SMALL,   /* unsigned */
} repro_rundir_campaign_kind;

typedef struct {
    const char *key;
    repro_rundir_campaign_kind kind;
    size_t offset;
    size_t size;
} repro_rundir_campaign_field;

#define REPRO_RUNDIR_CAMPAIGN_FIELD(name, kind)                                               \
    {#name, REPRO_RUNDIR_CAMPAIGN_##kind, offsetof(repro_rundir_campaign, name),                 \
     sizeof(((repro_rundir_campaign *)NULL)->name)}

static const repro_rundir_campaign_field repro_rundir_campaign_fields[] = {
    REPRO_RUNDIR_CAMPAIGN_FIELD(engine, TEXT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(backend, TEXT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(compare, TEXT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(strict_baseline, FLAG),
    REPRO_RUNDIR_CAMPAIGN_FIELD(jobs, INT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(budget_s, SECONDS),
    REPRO_RUNDIR_CAMPAIGN_FIELD(started_at, TEXT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(ended_at, TEXT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(elapsed_s, SECONDS),
    REPRO_RUNDIR_CAMPAIGN_FIELD(execs, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(coverage, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(corpus, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(restarts, SMALL),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_restarts_crashed, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_restarts_hung, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_unreliable_crashed, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_unreliable_hung, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_compiles, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_loads, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_jit_ms, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_classes, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(target_held, COUNT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(interrupted, FLAG),
    REPRO_RUNDIR_CAMPAIGN_FIELD(problem, OWNED),
    REPRO_RUNDIR_CAMPAIGN_FIELD(exit_code, EXIT),
    REPRO_RUNDIR_CAMPAIGN_FIELD(baseline, OWNED),
    REPRO_RUNDIR_CAMPAIGN_FIELD(tool_version, OWNED),
    REPRO_RUNDIR_CAMPAIGN_FIELD(host, TEXT),
};

void repro_rundir_campaign_free(repro_rundir_campaign *c) {
    free(c->problem);
    free(c->baseline);
    free(c->tool_version);
    repro_rundir_sources_free(c);
    memset(c, 0, sizeof *c);
    c->exit_code = -1;
}

/* What is wrong with a member: "expected X, found <its type>". */
static bool repro_rundir_campaign_expected(gm_error *why, const char *expected, const cJSON *item) {
    return gm_error_set(why, GM_ERR_FORMAT, "expected %s, found %s", expected,
                        gm_jsonint_type_name(item));
}

/* A string member: into a fixed buffer (TEXT) or a copy (OWNED). */
static bool repro_rundir_campaign_text(const repro_rundir_campaign_field *f, const cJSON *item,
                                       void *at, gm_error *why) {
    if (cJSON_IsNull(item)) {
        return true; /* the defaults already say "absent" */
    }
    if (!cJSON_IsString(item)) {
        return repro_rundir_campaign_expected(why, "a string or null", item);
    }
    if (f->kind == REPRO_RUNDIR_CAMPAIGN_OWNED) {
        char *copy = strdup(item->valuestring);
        *(char **)at = copy;
        return copy != NULL || gm_error_set(why, GM_ERR_MEMORY, "out of memory");
    }
    if (strlen(item->valuestring) >= f->size) {
        return gm_error_set(why, GM_ERR_FORMAT, "longer than %zu bytes", f->size - 1);
    }
    strcpy((char *)at, item->valuestring);
    return true;
}

/* An integer member in [lo, hi]. */
static bool repro_rundir_campaign_int(const cJSON *item, int64_t lo, int64_t hi, int *out,
                                   gm_error *why) {
    gm_jsonint_range range = {"int", lo, hi, lo};
    int64_t v = 0;
    bool ok = gm_jsonint_read(item, range, &v, why);
    *out = (int)v;
    return ok;
}

static bool repro_rundir_campaign_number(const repro_rundir_campaign_field *f, const cJSON *item,
                                      void *at, gm_error *why) {
    int64_t small = 0;
    switch (f->kind) {
    case REPRO_RUNDIR_CAMPAIGN_SECONDS:
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || item->valuedouble < 0) {
            return repro_rundir_campaign_expected(why, "a number of seconds >= 0", item);
        }
        *(double *)at = item->valuedouble;
        return true;
    case REPRO_RUNDIR_CAMPAIGN_COUNT: return gm_jsonint_read_u64(item, (uint64_t *)at, why);
    case REPRO_RUNDIR_CAMPAIGN_SMALL:
        if (!gm_jsonint_read(item, (gm_jsonint_range){"unsigned", 0, UINT32_MAX, 0}, &small,
                             why)) {
            return false;
        }
        *(unsigned *)at = (unsigned)small;
        return true;
    case REPRO_RUNDIR_CAMPAIGN_EXIT:
        return cJSON_IsNull(item) || repro_rundir_campaign_int(item, INT32_MIN, INT32_MAX, at, why);
    default: return repro_rundir_campaign_int(item, 0, INT32_MAX, at, why);
    }
}

/* One member into its field; false with `why` (the problem only). */
static bool repro_rundir_campaign_member(const repro_rundir_campaign_field *f, const cJSON *item,
                                      repro_rundir_campaign *out, gm_error *why) {
    void *at = (char *)out + f->offset;
    switch (f->kind) {
    case REPRO_RUNDIR_CAMPAIGN_TEXT:
    case REPRO_RUNDIR_CAMPAIGN_OWNED: return repro_rundir_campaign_text(f, item, at, why);
    case REPRO_RUNDIR_CAMPAIGN_FLAG:
        if (!cJSON_IsBool(item)) {
            return repro_rundir_campaign_expected(why, "true or false", item);
        }
        *(bool *)at = cJSON_IsTrue(item);
        return true;
    default: return repro_rundir_campaign_number(f, item, at, why);
    }
}

static bool repro_rundir_campaign_format(const char *path, const cJSON *root, gm_error *err) {
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (cJSON_IsString(format) && strcmp(format->valuestring, REPRO_RUNDIR_CAMPAIGN_FORMAT) == 0) {
        return true;
    }
    char quoted[64];
    gm_jsonint_quote(cJSON_IsString(format) ? format->valuestring : "", quoted, sizeof quoted);
    return gm_error_set(err, GM_ERR_FORMAT, "%s: format: expected \"%s\", found %s", path,
                        REPRO_RUNDIR_CAMPAIGN_FORMAT,
                        cJSON_IsString(format) ? quoted : gm_jsonint_type_name(format));
}

static bool repro_rundir_campaign_doc(const char *path, const cJSON *root,
                                      repro_rundir_campaign *out, gm_error *err) {
    if (!cJSON_IsObject(root)) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s: the document must be a JSON object, found %s",
                            path, gm_jsonint_type_name(root));
    }
    if (!repro_rundir_campaign_format(path, root, err)) {
        return false;
    }
    size_t n = sizeof repro_rundir_campaign_fields / sizeof repro_rundir_campaign_fields[0];
    for (size_t k = 0; k < n; k++) {
        const repro_rundir_campaign_field *f = &repro_rundir_campaign_fields[k];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, f->key);
        gm_error why = {0};
        if (item != NULL && !repro_rundir_campaign_member(f, item, out, &why)) {
            return gm_error_set(err, why.code, "%s: %s: %s", path, f->key, why.msg);
        }
    }
    gm_error why = {0};
    return repro_rundir_sources_read(root, out, &why) ||
           gm_error_set(err, why.code, "%s: %s", path, why.msg);
}

bool repro_rundir_campaign_read(const char *path, repro_rundir_campaign *out, gm_error *err) {
    char *text = NULL;
    size_t len = 0;
    repro_rundir_campaign_free(out);
    if (!gm_textfile_read(path, REPRO_RUNDIR_CAMPAIGN_MAX_BYTES, &text, &len, err)) {
        return false;
    }
    /* the one acceptance rule (gm_json_tree.h): nothing may follow it */
    gm_error why = {0};
    cJSON *root = gm_json_tree_parse(text, len, &why);
    bool ok = root != NULL ||
              gm_error_set(err, why.code, "%s: not valid JSON: %s", path, why.msg);
    ok = ok && repro_rundir_campaign_doc(path, root, out, err);
    cJSON_Delete(root);
    free(text);
    if (!ok) {
        repro_rundir_campaign_free(out);
        return false;
    }
    out->present = true;
    return true;
}
