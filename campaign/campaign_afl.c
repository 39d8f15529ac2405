#include "campaign_afl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void campaign_afl_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                       campaign_argv *argv) {
    const campaign_options *o = &s->opt;
    double up = ceil(time_left_s);
    campaign_argv_add(argv, "afl-fuzz");
    campaign_argv_add(argv, "-i");
    campaign_argv_add(argv, s->corpus);
    campaign_argv_add(argv, "-o");
    campaign_argv_add(argv, s->afl_out);
    campaign_argv_add(argv, w->index == 0 ? "-M" : "-S");
    campaign_argv_add(argv, w->name);
    campaign_argv_add(argv, "-V");
    campaign_argv_addf(argv, "%ld", up < 1.0 ? 1L : (long)up);
    if (o->seed != 0) {
        campaign_argv_add(argv, "-s");
        campaign_argv_addf(argv, "%llu", (unsigned long long)(o->seed + (uint64_t)w->index));
    }
    if (s->dict[0] != '\0') {
        campaign_argv_add(argv, "-x");
        campaign_argv_add(argv, s->dict);
    }
    campaign_argv_add(argv, "--");
    campaign_argv_add(argv, s->target);
}

void campaign_afl_env(campaign_argv *env) {
    /* A campaign runs unattended, often in a container: no curses screen,
     * no CPU-governor or core-pattern checks, no core pinning (cpusets
     * confuse it), resume an existing folder, go on past seeds that
     * already fail. */
    static const char *const settings[] = {
        "AFL_NO_UI=1",           "AFL_SKIP_CPUFREQ=1",  "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1",
        "AFL_NO_AFFINITY=1",     "AFL_AUTORESUME=1",    "AFL_SKIP_CRASHES=1",
        "AFL_NO_CRASH_README=1", "AFL_FAST_CAL=1",
    };
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        campaign_argv_add(env, settings[i]);
    }
}

/* The contents of a small text file (NULL when unreadable); free it. */
static char *campaign_afl_read(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 1 << 20;
    char *text = malloc(cap + 1);
    size_t len = text != NULL ? fread(text, 1, cap, f) : 0;
    fclose(f);
    if (text != NULL) {
        text[len] = '\0';
    }
    return text;
}

/* The fresher of fuzzer_stats and plot_data (the one with more execs). */
void campaign_afl_refresh(const campaign_setup *s, campaign_worker *w, double now_s) {
    char path[CAMPAIGN_PATH_MAX + 64];
    campaign_stats from_stats = {0}, from_plot = {0};
    snprintf(path, sizeof path, "%s/%s/fuzzer_stats", s->afl_out, w->name);
    char *text = campaign_afl_read(path);
    if (text != NULL) {
        campaign_stats_afl(text, &from_stats);
    }
    free(text);
    snprintf(path, sizeof path, "%s/%s/plot_data", s->afl_out, w->name);
    text = campaign_afl_read(path);
    if (text != NULL) {
        campaign_stats_afl_plot(text, &from_plot);
    }
    free(text);
    const campaign_stats *best = from_plot.execs > from_stats.execs ? &from_plot : &from_stats;
    if (best->have && best->execs != w->stats.execs) {
        w->stats = *best;
        w->stats_seen_s = now_s;
    }
}
