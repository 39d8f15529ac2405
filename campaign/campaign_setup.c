#include "campaign_setup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign_engine.h"
#include "campaign_lock.h"
#include "campaign_options.h"
#include "campaign_record.h"
#include "campaign_target.h"
#include "gm_file.h"
#include "harness.h"

#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif


static bool campaign_setup_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool campaign_setup_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* out/fuzz-<UTC time>, with -2, -3, ... when that folder exists. */
static bool campaign_setup_default_dir(char *out, size_t size) {
    time_t now = time(NULL);
    struct tm utc;
    char stamp[32];
    gmtime_r(&now, &utc);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    for (int k = 1; k < 100; k++) {
        int n = k == 1 ? snprintf(out, size, "out/fuzz-%s", stamp)
                       : snprintf(out, size, "out/fuzz-%s-%d", stamp, k);
        if (n < (int)size && !campaign_setup_is_dir(out)) {
            return true;
        }
    }
    return false;
}

static bool campaign_setup_join(char *out, const char *dir, const char *name, gm_error *err) {
    if (snprintf(out, CAMPAIGN_PATH_MAX, "%s/%s", dir, name) >= CAMPAIGN_PATH_MAX) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", dir);
    }
    return true;
}

static bool campaign_setup_folders(campaign_setup *s, gm_error *err) {
    if (s->opt.out_dir != NULL) {
        snprintf(s->dir, sizeof s->dir, "%s", s->opt.out_dir);
    } else if (!campaign_setup_default_dir(s->dir, sizeof s->dir)) {
        return gm_error_set(err, GM_ERR_IO, "cannot name a new folder under out/");
    }
    /* Room for every file name the campaign puts under it. */
    if (strlen(s->dir) > CAMPAIGN_PATH_MAX - 512) {
        return gm_error_set(err, GM_ERR_USAGE, "--out: path too long (%zu bytes)",
                            strlen(s->dir));
    }
    /* The lock before anything is written into the folder: a second
     * campaign must not truncate the first one's stats. */
    bool busy = false;
    if (!gm_file_make_dirs(s->dir, err) || !campaign_lock_take(&s->lock, s->dir, &busy, err)) {
        s->locked_out = busy;
        return false;
    }
    struct {
        char *path;
        const char *name;
    } parts[] = {{s->corpus, "corpus"}, {s->failures, "failures"}, {s->repros, "repros"},
                 {s->logs, "logs"},     {s->artifacts, "artifacts"}, {s->afl_out, "afl"}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!campaign_setup_join(parts[i].path, s->dir, parts[i].name, err) ||
            (i < 5 && !gm_file_make_dirs(parts[i].path, err))) {
            return false;
        }
    }
    return campaign_setup_join(s->baseline_run, s->dir, "baseline.json", err);
}

/* A path option: given (must exist), defaulted from the source tree (may
 * be missing: then none), or switched off (""). */
static bool campaign_setup_resource(const char *given, const char *default_rel, bool is_dir,
                                    size_t field, char *out, gm_error *err) {
    char flag[64];
    campaign_options_flags_of(field, true, flag, sizeof flag);
    if (given != NULL && given[0] == '\0') {
        out[0] = '\0';
        return true;
    }
    if (given != NULL) {
        if (is_dir ? !campaign_setup_is_dir(given) : !campaign_setup_is_file(given)) {
            return gm_error_set(err, GM_ERR_USAGE, "%s %s: no such %s", flag, given,
                                is_dir ? "folder" : "file");
        }
        snprintf(out, CAMPAIGN_PATH_MAX, "%s", given);
        return true;
    }
    snprintf(out, CAMPAIGN_PATH_MAX, "%s/%s", GMFUZZ_SOURCE_DIR, default_rel);
    if (is_dir ? !campaign_setup_is_dir(out) : !campaign_setup_is_file(out)) {
        out[0] = '\0';
    }
    return true;
}

static bool campaign_setup_copy_file(const char *from, const char *to) {
    FILE *out = fopen(to, "wbx"); /* never overwrite */
    bool ok = out != NULL && gm_file_append(out, from);
    if (out != NULL && fclose(out) != 0) {
        ok = false;
    }
    return ok;
}

/* Copies the seed files the corpus does not have yet. */
static bool campaign_setup_seed(campaign_setup *s, gm_error *err) {
    if (s->seeds[0] == '\0') {
        return true;
    }
    DIR *d = opendir(s->seeds);
    if (d == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", s->seeds, strerror(errno));
    }
    char from[CAMPAIGN_PATH_MAX], to[CAMPAIGN_PATH_MAX];
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.' ||
            snprintf(from, sizeof from, "%s/%s", s->seeds, e->d_name) >= (int)sizeof from ||
            snprintf(to, sizeof to, "%s/%s", s->corpus, e->d_name) >= (int)sizeof to ||
            !campaign_setup_is_file(from) || campaign_setup_is_file(to)) {
            continue;
        }
        s->seeded += campaign_setup_copy_file(from, to) ? 1 : 0;
    }
    closedir(d);
    return true;
}

static bool campaign_setup_corpus_empty(const campaign_setup *s) {
    DIR *d = opendir(s->corpus);
    bool empty = true;
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL && empty; e = readdir(d)) {
        empty = e->d_name[0] == '.';
    }
    if (d != NULL) {
        closedir(d);
    }
    return empty;
}

/* An engine that refuses an empty input folder (AFL++): a cold start is
 * one tiny input. */
static bool campaign_setup_afl_cold_start(const campaign_setup *s, gm_error *err) {
    if (!campaign_engine_of(s->opt.engine)->cold_start || !campaign_setup_corpus_empty(s)) {
        return true;
    }
    char path[CAMPAIGN_PATH_MAX];
    FILE *f = campaign_setup_join(path, s->corpus, "cold-start", err) ? fopen(path, "wb") : NULL;
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot write a starting input", s->corpus);
    }
    fputc(0, f);
    return fclose(f) == 0 || gm_error_set(err, GM_ERR_IO, "%s: cannot write it", path);
}

static bool campaign_setup_baseline(campaign_setup *s, gm_error *err) {
    if (s->opt.strict_baseline) {
        s->baseline_src[0] = '\0';
        return triage_baseline_empty(&s->baseline, err);
    }
    if (!campaign_setup_resource(s->opt.baseline, "corpus/known.json", false,
                                 CAMPAIGN_OPTIONS_AT(baseline), s->baseline_src, err)) {
        return false;
    }
    if (s->baseline_src[0] == '\0') {
        char file[64], strict[64];
        return gm_error_set(
            err, GM_ERR_USAGE, "no baseline: %s/corpus/known.json is missing; pass %s FILE or %s",
            GMFUZZ_SOURCE_DIR,
            campaign_options_flags_of(CAMPAIGN_OPTIONS_AT(baseline), true, file, sizeof file),
            campaign_options_flags_of(CAMPAIGN_OPTIONS_AT(strict_baseline), false, strict,
                                      sizeof strict));
    }
    return triage_baseline_load(s->baseline_src, &s->baseline, err);
}

/* --target-cache DIR: the target JIT's on-disk cache, created, for every
 * process the campaign starts (its jobs, hubs and minimizers inherit
 * TRITON_CACHE_DIR; docs/TARGETS.md, "Compiles and loads"). */
static bool campaign_setup_target_cache(const char *dir, gm_error *err) {
    char flag[64];
    campaign_options_flags_of(CAMPAIGN_OPTIONS_AT(target_cache), true, flag, sizeof flag);
    if (!gm_file_make_dirs(dir, err)) {
        gm_error_prefix(err, flag);
        return false;
    }
    return setenv("TRITON_CACHE_DIR", dir, 1) == 0 ||
           gm_error_set(err, GM_ERR_MEMORY, "%s: setenv failed", flag);
}

/* A job waiting on an external target is bounded by the target's own
 * limits: a call, a compile, the re-run that confirms a hang (the compile
 * limit, for a target whose compiles gmfuzz cannot see). The stall watchdog
 * must not take such a wait for a stuck job. */
static void campaign_setup_stall_limit(campaign_setup *s) {
    harness_target_spec t;
    gm_error ignored = {0};
    if (!campaign_options_target(&s->opt, &t, &ignored) || !harness_target_is_external(&t)) {
        return;
    }
    double wait = 2.0 * t.timeout_s + t.compile_timeout_s + 30.0;
    s->opt.stall_s = s->opt.stall_s > wait ? s->opt.stall_s : wait;
}

bool campaign_setup_prepare(campaign_setup *s, const campaign_options *o, int *exit_code,
                            gm_error *err) {
    memset(s, 0, sizeof *s);
    s->opt = *o;
    clock_gettime(CLOCK_REALTIME, &s->start);
    clock_gettime(CLOCK_MONOTONIC, &s->start_mono);
    *exit_code = CAMPAIGN_EXIT_USAGE;
    if (!campaign_setup_resource(o->seeds, "corpus/seed", true, CAMPAIGN_OPTIONS_AT(seeds),
                                 s->seeds, err) ||
        !campaign_setup_resource(o->dict, "fuzz/gmfuzz.dict", false, CAMPAIGN_OPTIONS_AT(dict),
                                 s->dict, err) ||
        !campaign_setup_baseline(s, err)) {
        return false;
    }
    if (!campaign_target_find(o, s->target, sizeof s->target, err)) {
        *exit_code = o->target != NULL ? CAMPAIGN_EXIT_USAGE : CAMPAIGN_EXIT_INFRA;
        return false;
    }
    *exit_code = CAMPAIGN_EXIT_INFRA;
    if (o->target_cache != NULL && !campaign_setup_target_cache(o->target_cache, err)) {
        return false;
    }
    campaign_setup_stall_limit(s);
    if (!campaign_setup_folders(s, err)) {
        *exit_code = s->locked_out ? CAMPAIGN_EXIT_LOCKED : CAMPAIGN_EXIT_INFRA;
        return false;
    }
    return campaign_setup_seed(s, err) && campaign_setup_afl_cold_start(s, err) &&
           campaign_record_start(s, err);
}

void campaign_setup_free(campaign_setup *s) {
    campaign_lock_release(&s->lock);
    triage_baseline_free(s->baseline);
    s->baseline = NULL;
}

double campaign_setup_elapsed(const campaign_setup *s) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - s->start_mono.tv_sec) +
           (double)(now.tv_nsec - s->start_mono.tv_nsec) * 1e-9;
}
