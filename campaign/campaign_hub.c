#include "campaign_hub.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign_engine.h"
#include "campaign_log.h"
#include "harness.h"

static bool campaign_hub_gpu_target(const campaign_options *o) {
    harness_target_spec t;
    gm_error err = {0};
    if (!campaign_options_target(o, &t, &err)) {
        return false;
    }
    return t.kind == HARNESS_TARGET_LIB || (t.kind == HARNESS_TARGET_PYTHON && !t.device_cpu) ||
           (t.kind == HARNESS_TARGET_BUILTIN && t.builtin != HARNESS_BACKEND_CPU);
}

/* How many GPUs the driver sees, without touching CUDA (a forked worker
 * could not use a context of ours): $CUDA_VISIBLE_DEVICES, else the
 * driver's /proc entries. */
static int campaign_hub_visible(char list[][CAMPAIGN_GPU_NAME_MAX], int max) {
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    int n = 0;
    if (env != NULL) {
        char copy[512], *save = NULL;
        snprintf(copy, sizeof copy, "%s", env);
        for (char *t = strtok_r(copy, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
            snprintf(list[n++], CAMPAIGN_GPU_NAME_MAX, "%s", t);
        }
        return n;
    }
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL && n < max; e = readdir(d)) {
        if (e->d_name[0] != '.') {
            snprintf(list[n], CAMPAIGN_GPU_NAME_MAX, "%d", n);
            n++;
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

int campaign_hub_gpus(const char *spec, char list[][CAMPAIGN_GPU_NAME_MAX], gm_error *err) {
    if (strcmp(spec, "all") == 0) {
        int n = campaign_hub_visible(list, CAMPAIGN_HUBS_MAX);
        return n > 0 ? n
                     : (gm_error_set(err, GM_ERR_USAGE,
                                     "--gpus all: no GPU visible (CUDA_VISIBLE_DEVICES unset "
                                     "and no /proc/driver/nvidia/gpus)"),
                        -1);
    }
    char copy[512], *save = NULL;
    int n = 0;
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        char *end = NULL;
        long id = strtol(t, &end, 10);
        if (*end != '\0' || id < 0 || id > 65535 || n == CAMPAIGN_HUBS_MAX) {
            gm_error_set(err, GM_ERR_USAGE,
                         "--gpus %s: item %d ('%s') is not a device number (or more than %d)",
                         spec, n, t, CAMPAIGN_HUBS_MAX);
            return -1;
        }
        snprintf(list[n++], CAMPAIGN_GPU_NAME_MAX, "%d", (int)id);
    }
    return n > 0 ? n : (gm_error_set(err, GM_ERR_USAGE, "--gpus: an empty list"), -1);
}

int campaign_hub_count(const campaign_options *o) {
    if (o->hubs >= 0) {
        return o->hubs;
    }
    bool served = campaign_engine_of(o->engine)->hubs;
    if (o->gpus != NULL && served) {
        char list[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX];
        gm_error err = {0};
        int n = campaign_hub_gpus(o->gpus, list, &err);
        return n > 0 ? n : 0;
    }
    if (!served || !campaign_hub_gpu_target(o)) {
        return 0; /* AFL++ forks the target per input: no connection to share */
    }
    harness_target_spec t;
    gm_error err = {0};
    /* Measured (docs/TARGETS.md): one hub, in lanes, for a GPU kernel; none
     * for a Python target, whose cost is per case in Python. */
    return campaign_options_target(o, &t, &err) && t.kind == HARNESS_TARGET_PYTHON ? 0 : 1;
}

static void campaign_hub_log_path(const campaign_setup *s, int k, char *out, size_t size) {
    snprintf(out, size, "%s/hub-%d.log", s->logs, k);
}

static bool campaign_hub_spawn(campaign_hubs *h, const campaign_setup *s, int k, gm_error *err) {
    char self[CAMPAIGN_PATH_MAX], name[96], parent[32], timeout[32], compile[32], start[32];
    char lanes[16];
    char log[CAMPAIGN_PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return gm_error_set(err, GM_ERR_IO, "target hub: cannot find the gmfuzz binary");
    }
    self[n] = '\0';
    snprintf(name, sizeof name, "%s.%d", h->name, k);
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    snprintf(timeout, sizeof timeout, "%g",
             s->opt.target_timeout_s > 0 ? s->opt.target_timeout_s : HARNESS_TARGET_DEFAULT_TIMEOUT_S);
    snprintf(compile, sizeof compile, "%g",
             s->opt.target_compile_timeout_s > 0 ? s->opt.target_compile_timeout_s
                                                 : HARNESS_TARGET_DEFAULT_COMPILE_TIMEOUT_S);
    snprintf(start, sizeof start, "%g",
             s->opt.target_start_timeout_s > 0 ? s->opt.target_start_timeout_s
                                               : HARNESS_TARGET_DEFAULT_START_TIMEOUT_S);
    const char *device = s->opt.target_device ? s->opt.target_device : "cuda";
    snprintf(lanes, sizeof lanes, "%d", s->opt.hub_lanes);
    char *argv[] = {self,           "target-hub",       "--name",  name,   "--target",
                    h->target,      "--target-device",  (char *)device,    "--target-timeout",
                    timeout,        "--target-compile-timeout", compile,   "--parent",
                    parent,         "--lanes",          lanes,     "--target-start-timeout",
                    start,          NULL};
    char visible[64];
    snprintf(visible, sizeof visible, "CUDA_VISIBLE_DEVICES=%s", h->gpus[k]);
    char *env[] = {h->gpus[k][0] ? visible : NULL, NULL};
    campaign_hub_log_path(s, k, log, sizeof log);
    return campaign_proc_start(&h->procs[k], argv, env, log, err);
}

/* Waits until hub k accepts a client, or says why it cannot. */
static bool campaign_hub_wait(campaign_hubs *h, const campaign_setup *s, int k, gm_error *err) {
    char name[96], log[CAMPAIGN_PATH_MAX + 32], said[200];
    snprintf(name, sizeof name, "%s.%d", h->name, k);
    const struct timespec pause = {0, 50 * 1000 * 1000};
    /* The hub starts its target before it answers: give it the target's
     * start-up limit, and then some. */
    double start = s->opt.target_start_timeout_s > 0 ? s->opt.target_start_timeout_s
                                                     : HARNESS_TARGET_DEFAULT_START_TIMEOUT_S;
    double limit = start + 30.0 > CAMPAIGN_HUB_START_S ? start + 30.0 : CAMPAIGN_HUB_START_S;
    for (double waited = 0; waited < limit; waited += 0.05) {
        harness_hub_client *c = NULL;
        gm_error ignored = {0};
        if (harness_hub_client_open(name, &c, &ignored)) {
            harness_hub_client_close(c);
            return true;
        }
        if (!campaign_proc_poll(&h->procs[k])) {
            break;
        }
        nanosleep(&pause, NULL);
    }
    campaign_hub_log_path(s, k, log, sizeof log);
    campaign_log_last_line(log, said, sizeof said);
    if (!h->procs[k].running && h->procs[k].exited && h->procs[k].code == HARNESS_EXIT_NO_START) {
        return gm_error_set(err, GM_ERR_START,
                            "target did not start within %g s (--target-start-timeout): target "
                            "hub %d (%s) gave up on it (log %s)",
                            start, k, h->target, log);
    }
    return gm_error_set(err, GM_ERR_DEVICE, "target hub %d (%s) did not start: %s (log %s)", k,
                        h->target, said, log);
}

bool campaign_hubs_start(campaign_hubs *h, const campaign_setup *s, campaign_argv *env,
                         gm_error *err) {
    memset(h, 0, sizeof *h);
    h->n = campaign_hub_count(&s->opt);
    if (h->n == 0) {
        return true;
    }
    harness_target_spec t;
    if (!campaign_options_target(&s->opt, &t, err)) {
        return false;
    }
    harness_target_format(&t, h->target, sizeof h->target);
    if (s->opt.gpus != NULL) {
        char list[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX];
        int n = campaign_hub_gpus(s->opt.gpus, list, err);
        if (n < 0) {
            return false;
        }
        for (int k = 0; k < h->n; k++) {
            memcpy(h->gpus[k], list[k % n], CAMPAIGN_GPU_NAME_MAX);
        }
    }
    snprintf(h->name, sizeof h->name, "gmfuzz-hub-%d-%lld", (int)getpid(), (long long)time(NULL));
    for (int k = 0; k < h->n; k++) {
        if (!campaign_hub_spawn(h, s, k, err)) {
            return false;
        }
    }
    for (int k = 0; k < h->n; k++) {
        if (!campaign_hub_wait(h, s, k, err)) {
            return false;
        }
    }
    campaign_argv_setting(env, FUZZ_SETTING_TARGET_HUB, "%s", h->name);
    campaign_argv_setting(env, FUZZ_SETTING_TARGET_HUBS, "%d", h->n);
    return true;
}

void campaign_hubs_tick(campaign_hubs *h, const campaign_setup *s) {
    for (int k = 0; k < h->n; k++) {
        gm_error err = {0};
        if (h->restarts < CAMPAIGN_HUB_RESTARTS_MAX && !campaign_proc_poll(&h->procs[k]) &&
            campaign_hub_spawn(h, s, k, &err)) {
            h->restarts++;
        }
    }
}

void campaign_hubs_stop(campaign_hubs *h) {
    for (int k = 0; k < h->n; k++) {
        campaign_proc_signal(&h->procs[k], SIGTERM);
    }
    campaign_proc_stop_all(h->procs, h->n, 5000);
    h->n = 0;
}
