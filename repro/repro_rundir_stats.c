#include "repro.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gm_json_tree.h"
#include "gm_jsonint.h"
#include "gm_textfile.h"

/* A day of samples at one a second is a few megabytes. */
#define REPRO_RUNDIR_STATS_MAX_BYTES ((size_t)256 << 20)

/* Where the reader is, for messages: "<file>: line <n>: <key>: ...". */
typedef struct {
    const char *path;
    size_t line;
    gm_error *err;
} repro_rundir_stats_where;

static bool repro_rundir_stats_fail(const repro_rundir_stats_where *w, const char *key,
                                    const char *problem) {
    return gm_error_set(w->err, GM_ERR_FORMAT, "%s: line %zu: %s%s%s", w->path, w->line,
                        key != NULL ? key : "", key != NULL ? ": " : "", problem);
}

static bool repro_rundir_stats_count(const repro_rundir_stats_where *w, const cJSON *obj,
                                     const char *key, uint64_t *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    gm_error problem = {0};
    if (item == NULL) {
        return repro_rundir_stats_fail(w, key, "missing");
    }
    return gm_jsonint_read_u64(item, out, &problem) ||
           repro_rundir_stats_fail(w, key, problem.msg);
}

static bool repro_rundir_stats_sample(const repro_rundir_stats_where *w, const cJSON *obj,
                                      repro_rundir_sample *s) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "t");
    if (!cJSON_IsObject(obj)) {
        return repro_rundir_stats_fail(w, NULL, "expected a JSON object");
    }
    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0) {
        return repro_rundir_stats_fail(w, "t", t == NULL ? "missing" : "expected seconds >= 0");
    }
    s->t = t->valuedouble;
    return repro_rundir_stats_count(w, obj, "execs", &s->execs) &&
           repro_rundir_stats_count(w, obj, "exec_per_sec", &s->exec_per_sec) &&
           repro_rundir_stats_count(w, obj, "coverage", &s->coverage) &&
           repro_rundir_stats_count(w, obj, "corpus", &s->corpus) &&
           repro_rundir_stats_count(w, obj, "signatures", &s->signatures) &&
           repro_rundir_stats_count(w, obj, "failures", &s->failures);
}

static bool repro_rundir_stats_blank(const char *line, size_t len) {
    for (size_t k = 0; k < len; k++) {
        if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r') {
            return false;
        }
    }
    return true;
}

/* Lines hold at most one sample each, so the newline count bounds them. */
static size_t repro_rundir_stats_lines(const char *text, size_t len) {
    size_t n = 1;
    for (const char *p = text; (p = memchr(p, '\n', len - (size_t)(p - text))) != NULL; p++) {
        n++;
    }
    return n;
}

/* One line into samples[*n]; a cut-off last line is skipped. */
static bool repro_rundir_stats_line(const repro_rundir_stats_where *w, const char *line, size_t len,
                                    bool terminated, repro_rundir_sample *samples, size_t *n) {
    if (repro_rundir_stats_blank(line, len)) {
        return true;
    }
    gm_error why = {0};
    cJSON *obj = gm_json_tree_parse(line, len, &why); /* the one acceptance rule */
    bool ok;
    if (obj == NULL) {
        char problem[GM_ERROR_MSG_MAX + 20];
        snprintf(problem, sizeof problem, "not valid JSON: %s", why.msg);
        ok = !terminated || repro_rundir_stats_fail(w, NULL, problem);
    } else {
        ok = repro_rundir_stats_sample(w, obj, &samples[*n]);
        *n += ok ? 1 : 0;
    }
    cJSON_Delete(obj);
    return ok;
}

static bool repro_rundir_stats_parse(const char *path, const char *text, size_t len,
                                     repro_rundir_sample *samples, size_t *n, gm_error *err) {
    repro_rundir_stats_where w = {path, 0, err};
    for (size_t at = 0; at < len;) {
        const char *end = memchr(text + at, '\n', len - at);
        size_t line_len = end != NULL ? (size_t)(end - (text + at)) : len - at;
        w.line++;
        if (!repro_rundir_stats_line(&w, text + at, line_len, end != NULL, samples, n)) {
            return false;
        }
        at += line_len + 1;
    }
    return true;
}

bool repro_rundir_stats_read(const char *path, repro_rundir_sample **out, size_t *n,
                             gm_error *err) {
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    *n = 0;
    if (!gm_textfile_read(path, REPRO_RUNDIR_STATS_MAX_BYTES, &text, &len, err)) {
        return false;
    }
    repro_rundir_sample *samples = calloc(repro_rundir_stats_lines(text, len), sizeof *samples);
    bool ok = samples != NULL ||
              gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory for its samples", path);
    ok = ok && repro_rundir_stats_parse(path, text, len, samples, n, err);
    free(text);
    if (!ok) {
        free(samples);
        *n = 0;
        return false;
    }
    *out = samples;
    return true;
}
