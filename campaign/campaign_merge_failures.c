#include "campaign_merge_failures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "repro.h"
#include "gm_file.h"

/* The best file so far of one signature, in one of the two folders. */
typedef struct {
    char *path;         /* NULL: none yet */
    long long bytes;
    int64_t bs;
    size_t source;
} campaign_merge_failures_best;

typedef struct {
    char signature[TRIAGE_SIGNATURE_MAX];
    campaign_merge_failures_best best[2]; /* [0] failures/, [1] repros/ */
} campaign_merge_failures_sig;

typedef struct {
    campaign_merge_failures_sig *sigs;
    size_t n, cap;
    campaign_merge_failures_result *out;
} campaign_merge_failures_table;

static campaign_merge_failures_sig *campaign_merge_failures_find(
    campaign_merge_failures_table *t, const char *signature) {
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->sigs[i].signature, signature) == 0) {
            return &t->sigs[i];
        }
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        campaign_merge_failures_sig *grown = realloc(t->sigs, cap * sizeof *grown);
        if (grown == NULL) {
            return NULL;
        }
        t->sigs = grown;
        t->cap = cap;
    }
    campaign_merge_failures_sig *s = &t->sigs[t->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->signature, sizeof s->signature, "%s", signature);
    return s;
}

/* Whether the file (bytes, bs) beats the best so far. */
static bool campaign_merge_failures_better(const campaign_merge_failures_best *b,
                                           const repro_fields *f) {
    return b->path == NULL || f->bytes < b->bytes || (f->bytes == b->bytes && f->bs < b->bs);
}

static bool campaign_merge_failures_note(campaign_merge_failures_table *t, const char *path,
                                         size_t source, int kind, gm_error *err) {
    repro_fields f;
    gm_error why = {0};
    if (!repro_fields_read(path, &f, &why)) {
        t->out->unreadable++;
        snprintf(t->out->last_problem, sizeof t->out->last_problem, "%s", why.msg);
        return true; /* not a reproducer: skipped, as triage does */
    }
    campaign_merge_failures_sig *s = campaign_merge_failures_find(t, f.finding.signature);
    if (s == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    }
    campaign_merge_failures_best *b = &s->best[kind];
    if (campaign_merge_failures_better(b, &f)) {
        char *copy = strdup(path);
        if (copy == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
        }
        free(b->path);
        *b = (campaign_merge_failures_best){copy, f.bytes, f.bs, source};
    }
    return true;
}

/* Reads one source folder's failures/ (kind 0) or repros/ (kind 1). */
static bool campaign_merge_failures_scan(campaign_merge_failures_table *t, const char *root,
                                         size_t source, int kind, gm_error *err) {
    char dir[CAMPAIGN_PATH_MAX];
    struct stat st;
    if (!campaign_merge_join(dir, root, kind == 0 ? "failures" : "repros", err)) {
        return false;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return true; /* a campaign that found nothing may have none */
    }
    harness_paths files;
    harness_paths_init(&files);
    bool ok = harness_paths_add(&files, dir, err);
    for (size_t i = 0; ok && i < files.count; i++) {
        ok = campaign_merge_failures_note(t, files.items[i], source, kind, err);
    }
    *(kind == 0 ? &t->out->failures_in : &t->out->repros_in) += files.count;
    harness_paths_free(&files);
    return ok;
}

/* OUT/<folder>/<name of b's file>, or K-<name> when another signature's
 * file has that name already. */
static bool campaign_merge_failures_write(const campaign_merge_options *o, const char *folder,
                                          const campaign_merge_failures_best *b, gm_error *err) {
    char dir[CAMPAIGN_PATH_MAX], to[CAMPAIGN_PATH_MAX], renamed[300];
    const char *slash = strrchr(b->path, '/');
    const char *name = slash != NULL ? slash + 1 : b->path;
    struct stat st;
    if (!campaign_merge_join(dir, o->out, folder, err) || !gm_file_make_dirs(dir, err) ||
        !campaign_merge_join(to, dir, name, err)) {
        return false;
    }
    if (stat(to, &st) == 0) {
        snprintf(renamed, sizeof renamed, "%zu-%.250s", b->source + 1, name);
        if (!campaign_merge_join(to, dir, renamed, err)) {
            return false;
        }
    }
    return campaign_merge_copy_file(b->path, to, err);
}

static void campaign_merge_failures_free(campaign_merge_failures_table *t) {
    for (size_t i = 0; i < t->n; i++) {
        free(t->sigs[i].best[0].path);
        free(t->sigs[i].best[1].path);
    }
    free(t->sigs);
}

bool campaign_merge_failures_run(const campaign_merge_options *o,
                                 const campaign_merge_source *src, size_t n,
                                 campaign_merge_failures_result *out, gm_error *err) {
    campaign_merge_failures_table t = {.out = out};
    memset(out, 0, sizeof *out);
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++) {
        ok = campaign_merge_failures_scan(&t, src[k].path, k, 0, err) &&
             campaign_merge_failures_scan(&t, src[k].path, k, 1, err);
    }
    for (size_t i = 0; ok && i < t.n; i++) {
        const campaign_merge_failures_sig *s = &t.sigs[i];
        ok = (s->best[0].path == NULL ||
              campaign_merge_failures_write(o, "failures", &s->best[0], err)) &&
             (s->best[1].path == NULL ||
              campaign_merge_failures_write(o, "repros", &s->best[1], err));
        out->failures_out += ok && s->best[0].path != NULL ? 1 : 0;
        out->repros_out += ok && s->best[1].path != NULL ? 1 : 0;
    }
    out->signatures = t.n;
    campaign_merge_failures_free(&t);
    return ok;
}
