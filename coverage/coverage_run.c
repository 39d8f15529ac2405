#include "coverage_run.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign.h"
#include "coverage_proc.h"
#include "coverage_sweep.h"
#include "fuzz.h"
#include "harness.h"
#include "repro.h"
#include "gm_file.h"

#define COVERAGE_RUN_MAX_FOLDERS 256

typedef struct {
    char *paths[COVERAGE_RUN_MAX_FOLDERS];
    int n;
} coverage_run_folders;

static bool coverage_run_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds dir/name when it is a folder. */
static bool coverage_run_add(coverage_run_folders *f, const char *dir, const char *name,
                             gm_error *err) {
    size_t size = strlen(dir) + strlen(name) + 2;
    char *path = malloc(size);
    if (path == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s/%s: out of memory", dir, name);
    }
    snprintf(path, size, "%s/%s", dir, name);
    if (!coverage_run_is_dir(path) || f->n == COVERAGE_RUN_MAX_FOLDERS) {
        free(path);
        return true;
    }
    f->paths[f->n++] = path;
    return true;
}

/* Each AFL++ instance's inputs (its other files are its own state). */
static bool coverage_run_afl(coverage_run_folders *f, const char *dir, gm_error *err) {
    char afl[PATH_MAX];
    snprintf(afl, sizeof afl, "%s/afl", dir);
    DIR *d = opendir(afl);
    bool ok = true;
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; ok && e != NULL; e = readdir(d)) {
        char inst[PATH_MAX];
        if (e->d_name[0] == '.' ||
            snprintf(inst, sizeof inst, "%s/%s", afl, e->d_name) >= (int)sizeof inst) {
            continue;
        }
        ok = coverage_run_add(f, inst, "queue", err) && coverage_run_add(f, inst, "crashes", err) &&
             coverage_run_add(f, inst, "hangs", err);
    }
    if (d != NULL) {
        closedir(d);
    }
    return ok;
}

/* A sweep's cases drawn again (coverage_sweep.h), in place of its
 * corpus/: the seeds copied there are not what it ran. */
static bool coverage_run_sweep(coverage_run_folders *f, const char *dir, const char *log,
                               gm_error *err) {
    size_t skipped = 0;
    if (!coverage_sweep_args(dir, f->paths, COVERAGE_RUN_MAX_FOLDERS, &f->n, &skipped, err)) {
        return false;
    }
    FILE *out = skipped > 0 ? fopen(log, "a") : NULL;
    if (out != NULL) {
        fprintf(out, "gmfuzz coverage: %zu sweep runs not replayed (shape runs longer than 1, "
                "or too many runs): only their failures and reproducers count\n", skipped);
        fclose(out);
    }
    return true;
}

static bool coverage_run_find(coverage_run_folders *f, const char *dir, const char *log,
                              gm_error *err) {
    static const char *const parts[] = {"corpus", "artifacts", "failures", "repros"};
    bool sweep = coverage_sweep_is(dir);
    for (size_t i = sweep ? 1 : 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!coverage_run_add(f, dir, parts[i], err)) {
            return false;
        }
    }
    if (!coverage_run_afl(f, dir, err) || (sweep && !coverage_run_sweep(f, dir, log, err))) {
        return false;
    }
    if (f->n == 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: no inputs: none of corpus/, artifacts/, "
                            "failures/, repros/, afl/*/queue/ (is it a campaign folder?)", dir);
    }
    return true;
}

static void coverage_run_folders_free(coverage_run_folders *f) {
    for (int i = 0; i < f->n; i++) {
        free(f->paths[i]);
    }
    f->n = 0;
}

/* Removes the *.profraw files of an earlier run: the profile is this one's. */
static bool coverage_run_clear(const char *profiles, gm_error *err) {
    if (!gm_file_make_dirs(profiles, err)) {
        return false;
    }
    DIR *d = opendir(profiles);
    if (d == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot list it", profiles);
    }
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        char path[PATH_MAX];
        if (n > 8 && strcmp(e->d_name + n - 8, ".profraw") == 0 &&
            snprintf(path, sizeof path, "%s/%s", profiles, e->d_name) < (int)sizeof path) {
            unlink(path);
        }
    }
    closedir(d);
    return true;
}

/* The harness's settings: the campaign's baseline and compare level. */
static void coverage_run_env(const coverage_run *r, char env[][PATH_MAX + 32]) {
    char path[PATH_MAX], baseline[PATH_MAX];
    repro_rundir_campaign c = {0};
    gm_error ignored = {0};
    snprintf(path, sizeof path, "%s/campaign.json", r->dir);
    bool have = repro_rundir_campaign_read(path, &c, &ignored);
    snprintf(env[0], sizeof env[0], "%s=%s", fuzz_settings_name(FUZZ_SETTING_COMPARE),
             have && strcmp(c.compare, "strict") == 0 ? "strict" : "live");
    bool found = campaign_record_baseline_for(r->dir, baseline, sizeof baseline);
    /* No baseline at all: nothing is known, as with --strict-baseline. */
    snprintf(env[1], sizeof env[1], "%s=%d", fuzz_settings_name(FUZZ_SETTING_STRICT_BASELINE),
             (have && c.strict_baseline) || !found);
    snprintf(env[2], sizeof env[2], "%s=%s", fuzz_settings_name(FUZZ_SETTING_BASELINE),
             found ? baseline : "");
    repro_rundir_campaign_free(&c);
}

static bool coverage_run_inputs(coverage_run *r, coverage_run_folders *f, const char *profiles,
                                gm_error *err) {
    char env[6][PATH_MAX + 32], profile[PATH_MAX + 64], counts[PATH_MAX];
    coverage_run_env(r, env);
    const fuzz_setting unset[] = {FUZZ_SETTING_TARGET, FUZZ_SETTING_TARGET_HUB,
                                  FUZZ_SETTING_REFERENCE};
    for (int k = 0; k < 3; k++) {
        snprintf(env[3 + k], sizeof env[3 + k], "%s=", fuzz_settings_name(unset[k]));
    }
    snprintf(profile, sizeof profile, "LLVM_PROFILE_FILE=%s/runner-%%p-%%m.profraw", profiles);
    /* The builtin CPU kernel and the C reference, whatever our environment
     * names (an empty value is no value to the harness). */
    char *env_extra[] = {env[0], env[1], env[2], profile, env[3], env[4], env[5], NULL};
    char *argv[COVERAGE_RUN_MAX_FOLDERS + 2] = {(char *)r->runner};
    for (int i = 0; i < f->n; i++) {
        argv[i + 1] = f->paths[i];
    }
    snprintf(counts, sizeof counts, "%s/runner.txt", r->out);
    if (!coverage_proc_run(argv, env_extra, counts, r->log, err)) {
        return false;
    }
    FILE *in = fopen(counts, "r");
    if (in == NULL || fgets(r->counts, sizeof r->counts, in) == NULL) {
        r->counts[0] = '\0';
    }
    r->counts[strcspn(r->counts, "\n")] = '\0';
    if (in != NULL) {
        fclose(in);
    }
    return true;
}

static bool coverage_run_merge(coverage_run *r, const coverage_tools *t, const char *profiles,
                               gm_error *err) {
    snprintf(r->profdata, sizeof r->profdata, "%s/coverage.profdata", r->out);
    /* llvm-profdata takes a folder and merges every raw profile in it. */
    char *argv[] = {(char *)t->profdata, "merge", "-sparse", "-o", r->profdata,
                    (char *)profiles, NULL};
    return coverage_proc_run(argv, NULL, NULL, r->log, err);
}

bool coverage_run_profile(coverage_run *r, const coverage_tools *t, gm_error *err) {
    coverage_run_folders f = {0};
    char profiles[PATH_MAX];
    snprintf(profiles, sizeof profiles, "%s/profiles", r->out);
    bool ok = coverage_run_find(&f, r->dir, r->log, err) && coverage_run_clear(profiles, err) &&
              coverage_run_inputs(r, &f, profiles, err) && coverage_run_merge(r, t, profiles, err);
    r->folders = f.n;
    coverage_run_folders_free(&f);
    return ok;
}
