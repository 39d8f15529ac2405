#include "campaign_engine.h"

#include <dirent.h>

#include "campaign_afl.h"
#include "campaign_libfuzzer.h"
#include "gm_oracle.h"

void campaign_engine_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                          campaign_argv *argv) {
    if (s->opt.engine == CAMPAIGN_AFL) {
        campaign_afl_argv(s, w, time_left_s, argv);
    } else if (s->opt.engine == CAMPAIGN_SWEEP) {
        campaign_libfuzzer_sweep_argv(s, w, time_left_s, argv);
    } else {
        campaign_libfuzzer_argv(s, w, time_left_s, argv);
    }
}

void campaign_engine_env(const campaign_setup *s, campaign_argv *env) {
    campaign_argv_addf(env, "GMFUZZ_FAILURE_DIR=%s", s->failures);
    campaign_argv_addf(env, "GMFUZZ_BASELINE=%s", s->baseline_run);
    campaign_argv_addf(env, "GMFUZZ_COMPARE=%s", gm_compare_name(s->opt.compare));
    campaign_argv_add(env, "GMFUZZ_STRICT_BASELINE=0");
    campaign_argv_addf(env, "GMFUZZ_KEEP_GOING=%d", s->opt.abort_on_failure ? 0 : 1);
    if (s->opt.fused != NULL) {
        campaign_argv_addf(env, "GMFUZZ_TARGET=%s", s->opt.fused);
    }
    if (s->opt.target_device != NULL) {
        campaign_argv_addf(env, "GMFUZZ_TARGET_DEVICE=%s", s->opt.target_device);
    }
    if (s->opt.target_timeout_s > 0) {
        campaign_argv_addf(env, "GMFUZZ_TARGET_TIMEOUT=%g", s->opt.target_timeout_s);
    }
    if (s->opt.target_compile_timeout_s > 0) {
        campaign_argv_addf(env, "GMFUZZ_TARGET_COMPILE_TIMEOUT=%g",
                           s->opt.target_compile_timeout_s);
    }
    if (s->opt.target_start_timeout_s > 0) {
        campaign_argv_addf(env, "GMFUZZ_TARGET_START_TIMEOUT=%g", s->opt.target_start_timeout_s);
    }
    campaign_argv_addf(env, "GMFUZZ_UNRELIABLE_DIR=%s/unreliable", s->dir);
    if (s->opt.schedule != NULL) {
        campaign_argv_addf(env, "GMFUZZ_SCHEDULE=%s", s->opt.schedule);
    }
    if (s->opt.class_run > 0) {
        campaign_argv_addf(env, "GMFUZZ_CLASS_RUN=%llu", (unsigned long long)s->opt.class_run);
    }
    if (s->opt.class_budget > 0) {
        campaign_argv_addf(env, "GMFUZZ_CLASS_BUDGET=%llu",
                           (unsigned long long)s->opt.class_budget);
    }
    if (s->opt.class_warm > 0) {
        campaign_argv_addf(env, "GMFUZZ_CLASS_WARM=%llu", (unsigned long long)s->opt.class_warm);
    }
    if (s->opt.reference != NULL) {
        campaign_argv_addf(env, "GMFUZZ_REFERENCE=%s", s->opt.reference);
    }
    if (s->opt.engine == CAMPAIGN_AFL) {
        campaign_afl_env(env);
    }
}

void campaign_engine_refresh(const campaign_setup *s, campaign_worker *w, double now_s) {
    if (s->opt.engine == CAMPAIGN_AFL) {
        campaign_afl_refresh(s, w, now_s);
    } else {
        campaign_libfuzzer_refresh(w, now_s);
    }
}

bool campaign_engine_restarts(const campaign_setup *s, const campaign_worker *w) {
    return s->opt.engine != CAMPAIGN_AFL && campaign_libfuzzer_restarts(s, w);
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
    if (s->opt.engine == CAMPAIGN_LIBFUZZER) {
        return campaign_engine_count_files(s->corpus);
    }
    uint64_t best = 0; /* AFL++ instances sync their queues: the largest */
    for (int i = 0; i < n; i++) {
        best = workers[i].stats.corpus > best ? workers[i].stats.corpus : best;
    }
    return best;
}
