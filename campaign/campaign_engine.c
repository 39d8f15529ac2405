#include "campaign_engine.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "campaign_afl.h"
#include "campaign_hub.h"
#include "campaign_libfuzzer.h"
#include "gm_oracle.h"

#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif

static void campaign_engine_libfuzzer_refresh(const campaign_setup *s, campaign_worker *w,
                                              double now_s) {
    (void)s;
    campaign_libfuzzer_refresh(w, now_s);
}

static int campaign_engine_libfuzzer_binaries(const campaign_options *o, char names[][64]) {
    /* With target hubs the job never touches the GPU: the CPU build will do. */
    snprintf(names[0], 64, "gmfuzz-libfuzzer-%s", campaign_hub_count(o) > 0 ? "cpu" : o->backend);
    return 1;
}

static int campaign_engine_afl_binaries(const campaign_options *o, char names[][64]) {
    snprintf(names[0], 64, "gmfuzz-afl-%s", o->backend);
    if (strcmp(o->backend, "cpu") != 0) {
        return 1;
    }
    snprintf(names[1], 64, "gmfuzz-afl");
    return 2;
}

static bool campaign_engine_libfuzzer_missing(const char *name, const char *looked,
                                              gm_error *err) {
    return gm_error_set(
        err, GM_ERR_USAGE,
        "no libFuzzer target %s (looked in %s). Build it in a tree configured for fuzzing:\n"
        "  cmake -S %s -B build/fuzz -DCMAKE_C_COMPILER=clang -DGMFUZZ_FUZZ=ON\n"
        "  cmake --build build/fuzz --target %s gmfuzz\n"
        "and run that tree's gmfuzz, or pass --target PATH",
        name, looked, GMFUZZ_SOURCE_DIR, name);
}

static bool campaign_engine_afl_missing(const char *name, const char *looked, gm_error *err) {
    return gm_error_set(
        err, GM_ERR_USAGE,
        "no AFL++ target %s (looked in %s). Build it in a tree compiled by afl-clang-fast:\n"
        "  CC=afl-clang-fast cmake -S %s -B build/afl -DGMFUZZ_CUDA=OFF\n"
        "  cmake --build build/afl --target gmfuzz-afl\n"
        "and pass --target build/afl/fuzz/gmfuzz-afl",
        name, looked, GMFUZZ_SOURCE_DIR);
}

/* Indexed by campaign_engine (campaign.h). */
static const campaign_engine_traits campaign_engine_table[CAMPAIGN_ENGINE_COUNT] = {
    [CAMPAIGN_LIBFUZZER] = {
        .name = "libfuzzer", .argv = campaign_libfuzzer_argv,
        .refresh = campaign_engine_libfuzzer_refresh, .restarts = campaign_libfuzzer_restarts,
        .binaries = campaign_engine_libfuzzer_binaries,
        .missing = campaign_engine_libfuzzer_missing, .name_prefix = "job-",
        .corpus_folder = true, .hubs = true, .takes_runs = true, .pow2_reports = true,
        .counts = CAMPAIGN_COUNTS_OWN_BUILD,
    },
    [CAMPAIGN_AFL] = {
        .name = "afl++", .alias = "afl", .argv = campaign_afl_argv, .env = campaign_afl_env,
        .refresh = campaign_afl_refresh, .binaries = campaign_engine_afl_binaries,
        .missing = campaign_engine_afl_missing,
        /* afl-clang-fast's runtime names it: a plain build of the same
         * harness only replays files and would make afl-fuzz give up. */
        .binary_mark = "__AFL_SHM_ID", .first_name = "main", .name_prefix = "sec-",
        .cold_start = true, .reports_late = true, .retire_quick = true,
        .counts = CAMPAIGN_COUNTS_NEVER,
    },
    [CAMPAIGN_SWEEP] = {
        .name = "sweep", .argv = campaign_libfuzzer_sweep_argv,
        .refresh = campaign_engine_libfuzzer_refresh, .restarts = campaign_libfuzzer_restarts,
        .name_prefix = "job-", .hubs = true, .takes_runs = true, .runs_are_cases = true,
        .pow2_reports = true, .counts = CAMPAIGN_COUNTS_ALWAYS,
    },
};

const campaign_engine_traits *campaign_engine_of(campaign_engine e) {
    return &campaign_engine_table[(unsigned)e < CAMPAIGN_ENGINE_COUNT ? e : CAMPAIGN_LIBFUZZER];
}

bool campaign_engine_from_name(const char *name, campaign_engine *out) {
    for (int e = 0; name != NULL && e < CAMPAIGN_ENGINE_COUNT; e++) {
        const campaign_engine_traits *t = &campaign_engine_table[e];
        if (strcmp(name, t->name) == 0 || (t->alias != NULL && strcmp(name, t->alias) == 0)) {
            *out = (campaign_engine)e;
            return true;
        }
    }
    return false;
}

const char *campaign_engine_name(campaign_engine e) {
    return campaign_engine_of(e)->name;
}

void campaign_engine_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                          campaign_argv *argv) {
    campaign_engine_of(s->opt.engine)->argv(s, w, time_left_s, argv);
}

void campaign_engine_env(const campaign_setup *s, campaign_argv *env) {
    campaign_argv_setting(env, FUZZ_SETTING_FAILURE_DIR, "%s", s->failures);
    campaign_argv_setting(env, FUZZ_SETTING_BASELINE, "%s", s->baseline_run);
    campaign_argv_setting(env, FUZZ_SETTING_COMPARE, "%s", gm_compare_name(s->opt.compare));
    campaign_argv_setting(env, FUZZ_SETTING_STRICT_BASELINE, "0");
    campaign_argv_setting(env, FUZZ_SETTING_KEEP_GOING, "%d", s->opt.abort_on_failure ? 0 : 1);
    if (s->opt.fused != NULL) {
        campaign_argv_setting(env, FUZZ_SETTING_TARGET, "%s", s->opt.fused);
    }
    if (s->opt.target_device != NULL) {
        campaign_argv_setting(env, FUZZ_SETTING_TARGET_DEVICE, "%s", s->opt.target_device);
    }
    if (s->opt.target_timeout_s > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_TARGET_TIMEOUT, "%g", s->opt.target_timeout_s);
    }
    if (s->opt.target_compile_timeout_s > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_TARGET_COMPILE_TIMEOUT, "%g",
                              s->opt.target_compile_timeout_s);
    }
    if (s->opt.target_start_timeout_s > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_TARGET_START_TIMEOUT, "%g",
                              s->opt.target_start_timeout_s);
    }
    campaign_argv_setting(env, FUZZ_SETTING_UNRELIABLE_DIR, "%s/unreliable", s->dir);
    if (s->opt.schedule != NULL) {
        campaign_argv_setting(env, FUZZ_SETTING_SCHEDULE, "%s", s->opt.schedule);
    }
    if (s->opt.class_run > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_CLASS_RUN, "%llu",
                              (unsigned long long)s->opt.class_run);
    }
    if (s->opt.class_budget > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_CLASS_BUDGET, "%llu",
                              (unsigned long long)s->opt.class_budget);
    }
    if (s->opt.class_warm > 0) {
        campaign_argv_setting(env, FUZZ_SETTING_CLASS_WARM, "%llu",
                              (unsigned long long)s->opt.class_warm);
    }
    if (s->opt.reference != NULL) {
        campaign_argv_setting(env, FUZZ_SETTING_REFERENCE, "%s", s->opt.reference);
    }
    const campaign_engine_traits *t = campaign_engine_of(s->opt.engine);
    if (t->env != NULL) {
        t->env(env);
    }
}

void campaign_engine_refresh(const campaign_setup *s, campaign_worker *w, double now_s) {
    campaign_engine_of(s->opt.engine)->refresh(s, w, now_s);
}

bool campaign_engine_restarts(const campaign_setup *s, const campaign_worker *w) {
    const campaign_engine_traits *t = campaign_engine_of(s->opt.engine);
    return t->restarts != NULL && t->restarts(s, w);
}

static uint64_t campaign_engine_count_files(const char *dir) {
    DIR *d = opendir(dir);
    uint64_t n = 0;
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        n += e->d_name[0] != '.' ? 1 : 0;
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

uint64_t campaign_engine_corpus(const campaign_setup *s, const campaign_worker *workers, int n) {
    if (campaign_engine_of(s->opt.engine)->corpus_folder) {
        return campaign_engine_count_files(s->corpus);
    }
    uint64_t best = 0; /* AFL++ instances sync their queues: the largest */
    for (int i = 0; i < n; i++) {
        best = workers[i].stats.corpus > best ? workers[i].stats.corpus : best;
    }
    return best;
}
