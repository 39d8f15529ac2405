/* campaign_warm: `gmfuzz warm` (campaign.h), the target's JIT cache filled
 * ahead of a campaign. */
#include "campaign.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign_options.h"
#include "fuzz.h"
#include "harness.h"

/* What a worker did, sent back through a pipe. */
typedef struct {
    bool opened;
    uint64_t cases, failed;
    harness_backend_jit jit;
    char msg[GM_ERROR_MSG_MAX];
} campaign_warm_result;

static double campaign_warm_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Job k's first `classes` new classes, as its sweep would draw them. */
static bool campaign_warm_classes(const campaign_warm_options *o, int k, gm_case *cases,
                                  size_t *n, gm_error *err) {
    uint64_t seed = (o->seed != 0 ? o->seed : 1) + (uint64_t)k; /* campaign_libfuzzer.c */
    for (unsigned j = 0; j < o->classes; j++) {
        gm_case_init(&cases[*n]);
        if (!fuzz_sched_new_class(seed, (unsigned)seed, j, &cases[*n], err)) {
            return false;
        }
        (*n)++;
    }
    return true;
}

/* The seed corpus' inputs k, k + jobs, k + 2 jobs, ...: the classes a
 * libFuzzer job meets first. */
static bool campaign_warm_seeds(const campaign_warm_options *o, int k, gm_case **cases,
                                size_t *n, size_t *cap, gm_error *err) {
    DIR *d = o->seeds != NULL ? opendir(o->seeds) : NULL;
    size_t index = 0;
    bool ok = true;
    for (struct dirent *e = d ? readdir(d) : NULL; ok && e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.' || index++ % (size_t)o->jobs != (size_t)k) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", o->seeds, e->d_name);
        size_t size = 0;
        uint8_t *bytes = fuzz_casefile_slurp(path, &size, err);
        if (*n == *cap) {
            gm_case *grown = realloc(*cases, (*cap * 2) * sizeof *grown);
            ok = grown != NULL || gm_error_set(err, GM_ERR_MEMORY, "out of memory");
            *cases = grown != NULL ? grown : *cases;
            *cap = grown != NULL ? *cap * 2 : *cap;
        }
        ok = ok && bytes != NULL && fuzz_decode(bytes, size, &(*cases)[*n], err);
        *n += ok ? 1 : 0;
        free(bytes);
    }
    if (d != NULL) {
        closedir(d);
    }
    return ok;
}

/* One worker: its classes, each alone (a case the fused model finds out of
 * bounds is not sent: it warms nothing). */
static void campaign_warm_worker(const campaign_warm_options *o, int k,
                                 campaign_warm_result *res) {
    gm_error err = {0};
    size_t n = 0, cap = o->classes + 16;
    gm_case *cases = calloc(cap, sizeof *cases);
    harness_backend *b = NULL;
    bool ok = cases != NULL && campaign_warm_classes(o, k, cases, &n, &err) &&
              campaign_warm_seeds(o, k, &cases, &n, &cap, &err);
    res->opened = ok && harness_backend_open_target(&o->target, &b, &err);
    for (size_t i = 0; res->opened && i < n; i++) {
        gm_outputs out;
        gm_outputs_init(&out);
        if (!harness_backend_run(b, &cases[i], &out, &err) ||
            (out.error != NULL && strncmp(out.error, "out_of_bounds", 13) != 0 &&
             strstr(out.error, GM_TARGET_DEVIATES_PREFIX) == NULL)) {
            res->failed++;
            snprintf(res->msg, sizeof res->msg, "%s", out.error ? out.error : err.msg);
        }
        res->cases++;
        gm_outputs_free(&out);
    }
    if (b != NULL) {
        res->jit = harness_backend_jit_counts(b);
        harness_backend_close(b);
    }
    if (!res->opened) {
        snprintf(res->msg, sizeof res->msg, "%s", err.msg);
    }
    for (size_t i = 0; cases != NULL && i < n; i++) {
        gm_case_free(&cases[i]);
    }
    free(cases);
}

static pid_t campaign_warm_spawn(const campaign_warm_options *o, int k, int *fd) {
    int fds[2];
    if (pipe(fds) != 0) {
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) {
            _exit(1);
        }
        static campaign_warm_result res;
        campaign_warm_worker(o, k, &res);
        ssize_t put = write(fds[1], &res, sizeof res);
        _exit(put == (ssize_t)sizeof res ? 0 : 1);
    }
    close(fds[1]);
    *fd = pid > 0 ? fds[0] : -1;
    if (pid < 0) {
        close(fds[0]);
    }
    return pid;
}

/* Worker k's result (a worker that died says so). */
static void campaign_warm_collect(pid_t pid, int fd, campaign_warm_result *res) {
    size_t got = 0;
    while (got < sizeof *res) {
        ssize_t n = read(fd, (char *)res + got, sizeof *res - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    waitpid(pid, NULL, 0);
    if (got < sizeof *res) {
        memset(res, 0, sizeof *res);
        snprintf(res->msg, sizeof res->msg, "the warming process died");
    }
}

int campaign_warm(const campaign_warm_options *o) {
    double t0 = campaign_warm_now();
    pid_t *pids = calloc((size_t)o->jobs, sizeof *pids);
    int *fds = calloc((size_t)o->jobs, sizeof *fds);
    campaign_warm_result *res = calloc((size_t)o->jobs, sizeof *res);
    if (pids == NULL || fds == NULL || res == NULL) {
        free(pids), free(fds), free(res);
        return CAMPAIGN_EXIT_INFRA;
    }
    for (int k = 0; k < o->jobs; k++) {
        pids[k] = campaign_warm_spawn(o, k, &fds[k]);
    }
    campaign_warm_result all = {.opened = true};
    int opened = 0;
    for (int k = 0; k < o->jobs; k++) {
        if (pids[k] > 0) {
            campaign_warm_collect(pids[k], fds[k], &res[k]);
        }
        opened += res[k].opened;
        all.cases += res[k].cases;
        all.failed += res[k].failed;
        all.jit.compiles += res[k].jit.compiles;
        all.jit.loads += res[k].jit.loads;
        all.jit.seconds += res[k].jit.seconds;
        if (res[k].msg[0] != '\0' && all.msg[0] == '\0') {
            snprintf(all.msg, sizeof all.msg, "worker %d: %s", k, res[k].msg);
        }
    }
    const char *cache = getenv("TRITON_CACHE_DIR");
    printf("gmfuzz warm: %llu cases on %d of %d workers in %.1f s: %llu kernels compiled, "
           "%llu loaded (%.1f s of JIT), cache %s\n",
           (unsigned long long)all.cases, opened, o->jobs, campaign_warm_now() - t0,
           (unsigned long long)all.jit.compiles, (unsigned long long)all.jit.loads,
           all.jit.seconds, cache != NULL ? cache : "(the target's default)");
    if (all.msg[0] != '\0') {
        printf("gmfuzz warm: %llu call%s did not return: %s\n", (unsigned long long)all.failed,
               all.failed == 1 ? "" : "s", all.msg);
    }
    free(pids), free(fds), free(res);
    return opened == o->jobs && all.cases > 0 ? CAMPAIGN_EXIT_OK : CAMPAIGN_EXIT_INFRA;
}
