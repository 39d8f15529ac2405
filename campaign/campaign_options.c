#include "campaign_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_engine.h"
#include "campaign_hub.h"
#include "gm_decimal.h"
#include "harness.h"

void campaign_options_default(campaign_options *o) {
    memset(o, 0, sizeof *o);
    o->engine = CAMPAIGN_LIBFUZZER;
    o->batch = 64;
    o->shape_run = 1;
    o->hubs = -1;
    o->hub_lanes = HARNESS_HUB_LANES_DEFAULT;
    o->backend = "cpu";
    o->time_s = CAMPAIGN_DEFAULT_TIME_S;
    o->stall_s = CAMPAIGN_DEFAULT_STALL_S;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (int)cores : 1;
    o->compare = GM_COMPARE_LIVE;
    o->minimize = true;
}

/* Seconds: a positive number, at most a year. */
static bool campaign_options_seconds(const char *text, double *out) {
    if (text == NULL) {
        return false;
    }
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v > 0.0) || v > 366.0 * 86400.0) {
        return false;
    }
    *out = v;
    return true;
}

static bool campaign_options_choice(campaign_options *o, const char *flag, const char *value) {
    if (strcmp(flag, "--engine") == 0) {
        return campaign_engine_from_name(value, &o->engine);
    }
    if (strcmp(flag, "--backend") == 0) {
        if (value == NULL || (strcmp(value, "cpu") != 0 && strcmp(value, "cuda") != 0)) {
            return false;
        }
        o->backend = value;
        return true;
    }
    return value != NULL && gm_compare_from_name(value, &o->compare); /* --compare */
}

/* A flag that takes a value; false when the value is bad. */
static bool campaign_options_valued(campaign_options *o, const char *flag, const char *value) {
    uint64_t n = 0;
    if (strcmp(flag, "--engine") == 0 || strcmp(flag, "--backend") == 0 ||
        strcmp(flag, "--compare") == 0) {
        return campaign_options_choice(o, flag, value);
    }
    if (strcmp(flag, "--time") == 0) {
        return campaign_options_seconds(value, &o->time_s);
    }
    if (strcmp(flag, "--stall-timeout") == 0) {
        return campaign_options_seconds(value, &o->stall_s);
    }
    if (strcmp(flag, "--minimize-time") == 0) {
        return campaign_options_seconds(value, &o->minimize_time_s);
    }
    if (strcmp(flag, "--target-timeout") == 0) {
        return campaign_options_seconds(value, &o->target_timeout_s);
    }
    if (strcmp(flag, "--target-compile-timeout") == 0) {
        return campaign_options_seconds(value, &o->target_compile_timeout_s);
    }
    if (strcmp(flag, "--target-start-timeout") == 0) {
        return campaign_options_seconds(value, &o->target_start_timeout_s);
    }
    if (strcmp(flag, "--target-cache") == 0) {
        o->target_cache = value;
        return value != NULL && value[0] != '\0';
    }
    if (strcmp(flag, "--target-device") == 0) {
        o->target_device = value;
        return value != NULL && (strcmp(value, "cpu") == 0 || strcmp(value, "cuda") == 0);
    }
    if (strcmp(flag, "--reference") == 0) {
        o->reference = value;
        return value != NULL && strncmp(value, "python", 6) == 0;
    }
    if (strcmp(flag, "--target") == 0 && value != NULL) {
        harness_target_spec spec;
        gm_error err = {0};
        if (harness_target_parse(value, &spec, &err)) { /* a target spec, else a binary */
            o->fused = value;
            if (spec.kind == HARNESS_TARGET_BUILTIN) {
                o->backend = spec.builtin == HARNESS_BACKEND_CPU ? "cpu" : "cuda";
            }
            return spec.kind != HARNESS_TARGET_BUILTIN || spec.builtin == HARNESS_BACKEND_CPU ||
                   spec.builtin == HARNESS_BACKEND_CUDA;
        }
        o->target = value;
        return value[0] != '\0';
    }
    if (strcmp(flag, "--jobs") == 0) {
        bool ok = gm_decimal_parse(value, 1, 1024, &n);
        o->jobs = (int)n;
        return ok;
    }
    if (strcmp(flag, "--gpus") == 0) {
        char list[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX];
        gm_error err = {0};
        o->gpus = value;
        return value != NULL && (strcmp(value, "all") == 0 || campaign_hub_gpus(value, list, &err) > 0);
    }
    if (strcmp(flag, "--hubs") == 0) {
        bool ok = gm_decimal_parse(value, 0, 64, &n);
        o->hubs = (int)n;
        return ok;
    }
    if (strcmp(flag, "--hub-lanes") == 0) {
        bool ok = gm_decimal_parse(value, 1, HARNESS_HUB_LANES_MAX, &n);
        o->hub_lanes = (int)n;
        return ok;
    }
    if (strcmp(flag, "--batch") == 0) {
        return gm_decimal_parse(value, 1, 65536, &o->batch);
    }
    if (strcmp(flag, "--shape-run") == 0) {
        return gm_decimal_parse(value, 1, 65536, &o->shape_run);
    }
    if (strcmp(flag, "--schedule") == 0) {
        o->schedule = value;
        return value != NULL && (strcmp(value, "auto") == 0 || strcmp(value, "classes") == 0 ||
                                 strcmp(value, "naive") == 0);
    }
    if (strcmp(flag, "--class-run") == 0) {
        return gm_decimal_parse(value, 1, 1u << 20, &o->class_run);
    }
    if (strcmp(flag, "--class-budget") == 0) {
        return gm_decimal_parse(value, 1, 100, &o->class_budget);
    }
    if (strcmp(flag, "--class-warm") == 0) {
        return gm_decimal_parse(value, 1, 1u << 16, &o->class_warm);
    }
    if (strcmp(flag, "--cases") == 0) { /* sweep: cases in all, split over the jobs */
        return gm_decimal_parse(value, 1, UINT64_MAX / 2, &o->runs);
    }
    if (strcmp(flag, "--runs") == 0) {
        return gm_decimal_parse(value, 1, UINT64_MAX / 2, &o->runs);
    }
    if (strcmp(flag, "--seed") == 0) {
        return gm_decimal_parse(value, 1, UINT32_MAX / 2, &o->seed);
    }
    const char **paths[] = {&o->out_dir, &o->baseline, &o->target, &o->seeds, &o->dict};
    const char *names[] = {"--out", "--baseline", "--engine-binary", "--seeds", "--dict"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(flag, names[i]) == 0) {
            *paths[i] = value;
            return value != NULL && value[0] != '\0';
        }
    }
    return false;
}

bool campaign_options_takes_value(const char *flag) {
    static const char *const valued[] = {"--engine", "--backend", "--compare", "--time",
                                         "--jobs",   "--runs",    "--seed",    "--out",
                                         "--baseline", "--target", "--seeds",  "--dict",
                                         "--engine-binary", "--target-device",
                                         "--target-timeout", "--target-compile-timeout",
                                         "--target-start-timeout",
                                         "--target-cache", "--reference", "--batch", "--shape-run",
                                         "--schedule", "--class-run", "--class-budget",
                                         "--class-warm",
                                         "--cases", "--hubs", "--hub-lanes", "--gpus",
                                         "--stall-timeout", "--minimize-time"};
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++) {
        if (strcmp(flag, valued[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* A flag without a value; false when unknown. */
static bool campaign_options_switch(campaign_options *o, const char *flag) {
    if (strcmp(flag, "--strict-baseline") == 0) {
        o->strict_baseline = true;
    } else if (strcmp(flag, "--no-seeds") == 0) {
        o->seeds = "";
    } else if (strcmp(flag, "--no-dict") == 0) {
        o->dict = "";
    } else if (strcmp(flag, "--stop-on-new") == 0) {
        o->stop_on_new = true;
    } else if (strcmp(flag, "--abort-on-failure") == 0) {
        o->abort_on_failure = true;
    } else if (strcmp(flag, "--no-minimize") == 0) {
        o->minimize = false;
    } else {
        return false;
    }
    return true;
}

bool campaign_options_set(campaign_options *o, const char *flag, const char *value) {
    if (campaign_options_takes_value(flag)) {
        return campaign_options_valued(o, flag, value);
    }
    return value == NULL && campaign_options_switch(o, flag);
}

bool campaign_options_check(const campaign_options *o, char *msg, size_t msg_size) {
    if (!campaign_engine_of(o->engine)->takes_runs && o->runs != 0) {
        snprintf(msg, msg_size, "--runs is for libFuzzer; AFL++ campaigns end with --time");
        return false;
    }
    return true;
}

bool campaign_options_target(const campaign_options *o, harness_target_spec *out, gm_error *err) {
    if (!harness_target_parse(o->fused != NULL ? o->fused : o->backend, out, err)) {
        return false;
    }
    out->device_cpu = o->target_device != NULL && strcmp(o->target_device, "cpu") == 0;
    if (o->target_timeout_s > 0) {
        out->timeout_s = o->target_timeout_s;
    }
    if (o->target_compile_timeout_s > 0) {
        out->compile_timeout_s = o->target_compile_timeout_s;
    }
    if (o->target_start_timeout_s > 0) {
        out->start_timeout_s = o->target_start_timeout_s;
    }
    return true;
}

double campaign_options_minimize_time(const campaign_options *o) {
    if (o->minimize_time_s > 0.0) {
        return o->minimize_time_s;
    }
    double share = CAMPAIGN_MINIMIZE_SHARE * o->time_s;
    return share > CAMPAIGN_MINIMIZE_MIN_S ? share : CAMPAIGN_MINIMIZE_MIN_S;
}

