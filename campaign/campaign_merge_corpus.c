#include "campaign_merge_corpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "campaign_argv.h"
#include "campaign_proc.h"
#include "campaign_target.h"
#include "gm_file.h"
#include "harness.h"
#include "gm_sha256.h"

/* A corpus file larger than this is not an input of ours (libFuzzer's own
 * default -max_len for a merge is 1 MiB). */
#define CAMPAIGN_MERGE_CORPUS_FILE_MAX ((size_t)64 << 20)

static bool campaign_merge_corpus_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Calls `each` for every regular, not hidden file of `dir`; how many. */
static size_t campaign_merge_corpus_files(const char *dir,
                                          bool (*each)(const char *, void *), void *ctx,
                                          bool *ok) {
    DIR *d = opendir(dir);
    size_t n = 0;
    char path[CAMPAIGN_PATH_MAX];
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL && *ok; e = readdir(d)) {
        struct stat st;
        if (e->d_name[0] == '.' ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            continue;
        }
        n++;
        *ok = each == NULL || each(path, ctx);
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

/* ---- the union, by content */

typedef struct {
    const char *out_dir;
    size_t written;
    gm_error *err;
} campaign_merge_corpus_union;

static bool campaign_merge_corpus_read(const char *path, char **data, size_t *len,
                                       gm_error *err) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (f == NULL || fstat(fileno(f), &st) != 0 ||
        (size_t)st.st_size > CAMPAIGN_MERGE_CORPUS_FILE_MAX) {
        int saved = errno;
        if (f != NULL) {
            fclose(f);
        }
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read (or larger than %zu MiB): %s", path,
                            CAMPAIGN_MERGE_CORPUS_FILE_MAX >> 20, strerror(saved));
    }
    *len = (size_t)st.st_size;
    *data = malloc(*len + 1);
    bool ok = *data != NULL && fread(*data, 1, *len, f) == *len;
    fclose(f);
    if (!ok) {
        free(*data);
        *data = NULL;
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read", path);
    }
    return true;
}

/* One file into OUT/corpus/<sha256>, unless that content is there. */
static bool campaign_merge_corpus_add(const char *path, void *ctx) {
    campaign_merge_corpus_union *u = ctx;
    char *data = NULL, hex[65], to[CAMPAIGN_PATH_MAX];
    size_t len = 0;
    if (!campaign_merge_corpus_read(path, &data, &len, u->err)) {
        return false;
    }
    gm_sha256 h;
    gm_sha256_init(&h);
    gm_sha256_update(&h, data, len);
    gm_sha256_final_hex(&h, hex);
    struct stat st;
    bool ok = campaign_merge_join(to, u->out_dir, hex, u->err);
    if (ok && stat(to, &st) != 0) {
        ok = gm_file_write_atomic(to, data, len, u->err);
        u->written += ok ? 1 : 0;
    }
    free(data);
    return ok;
}

static bool campaign_merge_corpus_union_all(const campaign_merge_source *src, size_t n,
                                            const char *out_dir,
                                            campaign_merge_corpus_result *out, gm_error *err) {
    campaign_merge_corpus_union u = {.out_dir = out_dir, .err = err};
    char dir[CAMPAIGN_PATH_MAX];
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++) {
        if (campaign_merge_join(dir, src[k].path, "corpus", err) &&
            campaign_merge_corpus_is_dir(dir)) {
            out->files_in += campaign_merge_corpus_files(dir, campaign_merge_corpus_add, &u, &ok);
        }
    }
    out->files_out = u.written;
    return ok;
}

/* ---- libFuzzer's -merge=1 */

/* "MERGE-OUTER: 30 new files with 1234 new features added; 812 new coverage edges" */
static void campaign_merge_corpus_parse(const char *log, campaign_merge_corpus_result *out) {
    FILE *f = fopen(log, "r");
    char line[1024];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        unsigned long long files = 0, ft = 0, edges = 0;
        if (sscanf(line, "MERGE-OUTER: %llu new files with %llu new features added; %llu new "
                         "coverage edges", &files, &ft, &edges) == 3) {
            out->new_features = (long long)ft;
            out->new_edges = (long long)edges;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
}

/* The environment the target needs to run the corpora (fuzz.h):
 * like a campaign's jobs, but nothing it saves joins OUT/failures/. */
static void campaign_merge_corpus_env(const campaign_merge_options *o,
                                      const campaign_merge_source *src, campaign_argv *env) {
    campaign_argv_setting(env, FUZZ_SETTING_FAILURE_DIR, "%s/artifacts/merge-failures", o->out);
    campaign_argv_setting(env, FUZZ_SETTING_BASELINE, "%s/known.json", o->out);
    campaign_argv_setting(env, FUZZ_SETTING_KEEP_GOING, "1");
    campaign_argv_setting(env, FUZZ_SETTING_STRICT_BASELINE, "0");
    if (src[0].record.compare[0] != '\0') {
        campaign_argv_setting(env, FUZZ_SETTING_COMPARE, "%s", src[0].record.compare);
    }
}

static bool campaign_merge_corpus_argv(const campaign_merge_options *o,
                                       const campaign_merge_source *src, size_t n,
                                       const char *binary, campaign_argv *argv,
                                       campaign_merge_corpus_result *out, gm_error *err) {
    char dir[CAMPAIGN_PATH_MAX];
    campaign_argv_add(argv, binary);
    campaign_argv_add(argv, "-merge=1");
    campaign_argv_addf(argv, "-artifact_prefix=%s/artifacts/", o->out);
    campaign_argv_addf(argv, "%s/corpus", o->out);
    for (size_t k = 0; k < n; k++) {
        bool ok = true;
        if (!campaign_merge_join(dir, src[k].path, "corpus", err)) {
            return false;
        }
        if (campaign_merge_corpus_is_dir(dir)) {
            out->files_in += campaign_merge_corpus_files(dir, NULL, NULL, &ok);
            campaign_argv_add(argv, dir);
        }
    }
    return !argv->failed || gm_error_set(err, GM_ERR_MEMORY, "merge: out of memory");
}

/* Runs the target to its end (it dies with us: campaign_proc.h). */
static bool campaign_merge_corpus_wait(campaign_proc *p, const char *log, gm_error *err) {
    const struct timespec pause = {0, 20 * 1000 * 1000};
    while (campaign_proc_poll(p)) {
        nanosleep(&pause, NULL);
    }
    if (p->exited && p->code == 0) {
        return true;
    }
    char how[64];
    campaign_proc_describe(p, how, sizeof how);
    return gm_error_set(err, GM_ERR_IO, "libFuzzer's -merge=1 ended with %s (its output: %s)",
                        how, log);
}

static bool campaign_merge_corpus_libfuzzer(const campaign_merge_options *o,
                                            const campaign_merge_source *src, size_t n,
                                            campaign_merge_corpus_result *out, gm_error *err) {
    char log[CAMPAIGN_PATH_MAX], failures[CAMPAIGN_PATH_MAX], corpus[CAMPAIGN_PATH_MAX];
    campaign_argv argv, env;
    campaign_argv_init(&argv);
    campaign_argv_init(&env);
    campaign_merge_corpus_env(o, src, &env);
    campaign_proc proc = {0};
    bool ok = campaign_merge_join(log, o->out, "logs/merge.log", err) &&
              campaign_merge_join(failures, o->out, "artifacts/merge-failures", err) &&
              campaign_merge_join(corpus, o->out, "corpus", err) &&
              gm_file_make_dirs(failures, err) &&
              campaign_merge_corpus_argv(o, src, n, out->binary, &argv, out, err) &&
              (!env.failed || gm_error_set(err, GM_ERR_MEMORY, "merge: out of memory")) &&
              campaign_proc_start(&proc, campaign_argv_items(&argv), env.items, log, err) &&
              campaign_merge_corpus_wait(&proc, log, err);
    campaign_argv_free(&argv);
    campaign_argv_free(&env);
    if (ok) {
        bool listed = true;
        out->files_out = campaign_merge_corpus_files(corpus, NULL, NULL, &listed);
        campaign_merge_corpus_parse(log, out);
    }
    return ok;
}

/* The libFuzzer target: --engine-binary, else where `gmfuzz fuzz` looks. */
static bool campaign_merge_corpus_binary(const campaign_merge_options *o,
                                         campaign_merge_corpus_result *out) {
    if (o->union_only) {
        snprintf(out->note, sizeof out->note, "--union given");
        return false;
    }
    campaign_options find;
    memset(&find, 0, sizeof find);
    find.engine = CAMPAIGN_LIBFUZZER;
    find.backend = "cpu";
    find.hubs = 0;
    find.target = o->engine_binary;
    gm_error err = {0};
    if (campaign_target_find(&find, out->binary, sizeof out->binary, &err)) {
        return true;
    }
    /* fuzz's message, up to the folders it looked in (not how to build). */
    char first[sizeof err.msg];
    memcpy(first, err.msg, sizeof first);
    char *cut = strstr(first, ". Build");
    if (cut != NULL) {
        *cut = '\0';
    }
    snprintf(out->note, sizeof out->note, "%s", first);
    out->binary[0] = '\0';
    return false;
}

bool campaign_merge_corpus_run(const campaign_merge_options *o, const campaign_merge_source *src,
                               size_t n, campaign_merge_corpus_result *out, gm_error *err) {
    char corpus[CAMPAIGN_PATH_MAX];
    memset(out, 0, sizeof *out);
    out->new_features = out->new_edges = -1;
    if (!campaign_merge_join(corpus, o->out, "corpus", err) || !gm_file_make_dirs(corpus, err)) {
        return false;
    }
    if (o->engine_binary != NULL && o->union_only) {
        return gm_error_set(err, GM_ERR_USAGE, "--engine-binary and --union exclude each other");
    }
    out->by_libfuzzer = campaign_merge_corpus_binary(o, out);
    if (!out->by_libfuzzer && o->engine_binary != NULL) {
        return gm_error_set(err, GM_ERR_USAGE, "--engine-binary %s: not an executable file",
                            o->engine_binary);
    }
    return out->by_libfuzzer ? campaign_merge_corpus_libfuzzer(o, src, n, out, err)
                             : campaign_merge_corpus_union_all(src, n, corpus, out, err);
}
