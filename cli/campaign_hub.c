#include "campaign_hub.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign_log.h"
#include "gm_hub.h"

static bool campaign_hub_gpu_target(const campaign_options *o) {
    gm_target_spec t;
    gm_error err = {0};
    if (!campaign_options_target(o, &t, &err)) {
        return false;
    }
    return t.kind == GM_TARGET_LIB || (t.kind == GM_TARGET_PYTHON && !t.device_cpu) ||
           (t.kind == GM_TARGET_BUILTIN && t.builtin != GM_BACKEND_CPU);
}

int campaign_hub_count(const campaign_options *o) {
    if (o->hubs >= 0) {
        return o->hubs;
    }
    if (o->engine == CAMPAIGN_AFL || !campaign_hub_gpu_target(o)) {
        return 0; /* AFL++ forks the target per input: no connection to share */
    }
    gm_target_spec t;
    gm_error err = {0};
    /* Measured (docs/TARGETS.md): one hub, in lanes, for a GPU kernel; none
     * for a Python target, whose cost is per case in Python. */
    return campaign_options_target(o, &t, &err) && t.kind == GM_TARGET_PYTHON ? 0 : 1;
}

static void campaign_hub_log_path(const campaign_setup *s, int k, char *out, size_t size) {
    snprintf(out, size, "%s/hub-%d.log", s->logs, k);
}

static bool campaign_hub_spawn(campaign_hubs *h, const campaign_setup *s, int k, gm_error *err) {
    char self[CAMPAIGN_PATH_MAX], name[96], parent[32], timeout[32], log[CAMPAIGN_PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return gm_error_set(err, GM_ERR_IO, "target hub: cannot find the gmfuzz binary");
    }
    self[n] = '\0';
    snprintf(name, sizeof name, "%s.%d", h->name, k);
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    snprintf(timeout, sizeof timeout, "%g",
             s->opt.target_timeout_s > 0 ? s->opt.target_timeout_s : GM_TARGET_DEFAULT_TIMEOUT_S);
    const char *device = s->opt.target_device ? s->opt.target_device : "cuda";
    char *argv[] = {self,           "target-hub",       "--name",  name,   "--target",
                    h->target,      "--target-device",  (char *)device,    "--target-timeout",
                    timeout,        "--parent",         parent,    NULL};
    char *env[] = {NULL};
    campaign_hub_log_path(s, k, log, sizeof log);
    return campaign_proc_start(&h->procs[k], argv, env, log, err);
}

/* Waits until hub k accepts a client, or says why it cannot. */
static bool campaign_hub_wait(campaign_hubs *h, const campaign_setup *s, int k, gm_error *err) {
    char name[96], log[CAMPAIGN_PATH_MAX + 32], said[200];
    snprintf(name, sizeof name, "%s.%d", h->name, k);
    const struct timespec pause = {0, 50 * 1000 * 1000};
    for (double waited = 0; waited < CAMPAIGN_HUB_START_S; waited += 0.05) {
        gm_hub_client *c = NULL;
        gm_error ignored = {0};
        if (gm_hub_client_open(name, &c, &ignored)) {
            gm_hub_client_close(c);
            return true;
        }
        if (!campaign_proc_poll(&h->procs[k])) {
            break;
        }
        nanosleep(&pause, NULL);
    }
    campaign_hub_log_path(s, k, log, sizeof log);
    campaign_log_last_line(log, said, sizeof said);
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
    gm_target_spec t;
    if (!campaign_options_target(&s->opt, &t, err)) {
        return false;
    }
    gm_target_format(&t, h->target, sizeof h->target);
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
    campaign_argv_addf(env, "GMFUZZ_TARGET_HUB=%s", h->name);
    campaign_argv_addf(env, "GMFUZZ_TARGET_HUBS=%d", h->n);
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
