#include "harness_worker.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness_libtarget.h"
#include "harness_wire.h"
#include "harness_wire_case.h"

struct harness_worker {
    harness_cuda_mode mode;
    char lib_path[1024]; /* a lib: target's library; "": a builtin CUDA backend */
    double timeout_s;    /* lib: one call's limit; 0: none */
    pid_t pid;           /* 0: no live worker */
    int fd;              /* our end of the socket pair */
    unsigned restarts;
    unsigned hangs;
};

/* What runs cases inside the worker: a builtin CUDA backend or a lib:
 * target's library. */
typedef struct {
    harness_backend_cuda *cuda;
    harness_libtarget *lib;
} harness_worker_engine;

static bool harness_worker_engine_open(const harness_worker *w, harness_worker_engine *e,
                                       gm_error *err) {
    *e = (harness_worker_engine){0};
    return w->lib_path[0] ? harness_libtarget_open(w->lib_path, &e->lib, err)
                          : harness_backend_cuda_open(w->mode, &e->cuda, err);
}

static bool harness_worker_engine_run(harness_worker_engine *e, const gm_case *c, gm_outputs *out,
                                      gm_error *err) {
    return e->lib ? harness_libtarget_run(e->lib, c, out, err)
                  : harness_backend_cuda_run(e->cuda, c, out, err);
}

static void harness_worker_engine_close(harness_worker_engine *e) {
    harness_libtarget_close(e->lib);
    if (e->cuda != NULL) {
        harness_backend_cuda_close(e->cuda);
    }
}

/* ---- the worker process ------------------------------------------------ */

/* One RUN request; false when the worker must exit (device error). */
static bool harness_worker_serve_one(harness_worker_engine *cu, int fd, const char *bytes,
                                     size_t len) {
    gm_case c;
    gm_case_init(&c);
    gm_outputs out;
    gm_outputs_init(&out);
    gm_error err = {0};
    bool ok = harness_wire_case_decode(bytes, len, &c, &err) &&
              gm_outputs_prepare(&out, &c, &err) && harness_worker_engine_run(cu, &c, &out, &err);
    bool alive = true;
    if (ok) {
        size_t n = 0;
        char *payload = harness_wire_case_outputs_encode(&out, &n);
        alive = payload != NULL && harness_wire_send(fd, HARNESS_WIRE_RESULT, payload, n);
        free(payload);
    } else {
        harness_wire_send(fd, HARNESS_WIRE_DEVICE_ERROR, err.msg, strlen(err.msg));
        alive = err.code != GM_ERR_DEVICE; /* a device error may be sticky: exit */
    }
    gm_outputs_free(&out);
    gm_case_free(&c);
    return alive;
}

static int harness_worker_serve(const harness_worker *w, int fd) {
    harness_worker_engine engine, *cu = &engine;
    gm_error err = {0};
    if (w->lib_path[0]) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a vendor's library: never outlive gmfuzz */
    }
    if (!harness_worker_engine_open(w, cu, &err)) {
        harness_wire_send(fd, HARNESS_WIRE_REFUSED, err.msg, strlen(err.msg));
        return 1;
    }
    bool alive = harness_wire_send(fd, HARNESS_WIRE_HELLO, NULL, 0);
    while (alive) {
        harness_wire_type type;
        char *payload = NULL;
        size_t len = 0;
        alive = harness_wire_receive(fd, &type, &payload, &len) && type == HARNESS_WIRE_RUN &&
                harness_worker_serve_one(cu, fd, payload, len);
        free(payload);
    }
    harness_worker_engine_close(cu);
    return 0;
}

/* ---- the harness side ---------------------------------------------------- */

static void harness_worker_reap(harness_worker *w) {
    if (w->pid > 0) {
        kill(w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
    }
    if (w->fd >= 0) {
        close(w->fd);
    }
    w->pid = 0;
    w->fd = -1;
}

/* How a worker that closed its socket ended, in the words of
 * harness_pyworker ("killed by signal 11 (...)": a target's crash is
 * bucketed by its signal, triage_target.h); it is given a second to be
 * reaped. */
static void harness_worker_death(harness_worker *w, char *what, size_t size) {
    int status = 0;
    pid_t got = 0;
    for (int k = 0; k < 100 && w->pid > 0 && (got = waitpid(w->pid, &status, WNOHANG)) == 0; k++) {
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    if (got == w->pid && WIFSIGNALED(status)) {
        snprintf(what, size, "the worker process died: killed by signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (got == w->pid && WIFEXITED(status)) {
        snprintf(what, size, "the worker process died: exited with status %d",
                 WEXITSTATUS(status));
    } else {
        snprintf(what, size, "the worker process died");
    }
    if (got == w->pid) {
        w->pid = 0; /* reaped: nothing to kill */
    }
}

/* Forks the worker and waits for its HELLO (or its reason to refuse). */
static bool harness_worker_spawn(harness_worker *w, gm_error *err) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: socketpair failed");
    }
    fflush(NULL); /* no buffered output printed twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return gm_error_set(err, GM_ERR_DEVICE, "backend cuda: fork failed");
    }
    if (pid == 0) {
        close(fds[0]);
        _exit(harness_worker_serve(w, fds[1])); /* no atexit handlers of the parent */
    }
    close(fds[1]);
    w->pid = pid;
    w->fd = fds[0];
    harness_wire_type type;
    char *payload = NULL;
    size_t len = 0;
    bool hello = harness_wire_receive(w->fd, &type, &payload, &len) && type == HARNESS_WIRE_HELLO;
    if (!hello) {
        gm_error_set(err, GM_ERR_DEVICE, "%s",
                     payload && type == HARNESS_WIRE_REFUSED
                         ? payload
                         : "backend cuda: the worker did not start");
        harness_worker_reap(w);
    }
    free(payload);
    return hello;
}

static bool harness_worker_start_any(harness_cuda_mode mode, const char *lib_path, double timeout_s,
                                     harness_worker **out, gm_error *err) {
    *out = NULL;
    harness_worker *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory starting a worker");
    }
    w->mode = mode;
    snprintf(w->lib_path, sizeof w->lib_path, "%s", lib_path);
    w->timeout_s = timeout_s;
    w->fd = -1;
    if (!harness_worker_spawn(w, err)) {
        free(w);
        return false;
    }
    *out = w;
    return true;
}

bool harness_worker_start(harness_cuda_mode mode, harness_worker **out, gm_error *err) {
    return harness_worker_start_any(mode, "", 0, out, err);
}

bool harness_worker_start_lib(const char *path, double timeout_s, harness_worker **out,
                              gm_error *err) {
    return harness_worker_start_any(HARNESS_CUDA_RAW, path, timeout_s, out, err);
}

void harness_worker_stop(harness_worker *w) {
    if (w == NULL) {
        return;
    }
    if (w->fd >= 0 && harness_wire_send(w->fd, HARNESS_WIRE_STOP, NULL, 0)) {
        waitpid(w->pid, NULL, 0); /* a clean exit releases the GPU */
        w->pid = 0;
    }
    harness_worker_reap(w);
    free(w);
}

unsigned harness_worker_restarts(const harness_worker *w) { return w->restarts; }
unsigned harness_worker_hangs(const harness_worker *w) { return w->hangs; }

/* Whether the worker answers within `limit_s` (none: wait). */
static bool harness_worker_answers_in_time(const harness_worker *w, double limit_s) {
    if (limit_s <= 0) {
        return true;
    }
    struct pollfd p = {.fd = w->fd, .events = POLLIN};
    int n;
    do {
        n = poll(&p, 1, (int)(limit_s * 1000.0) + 1);
    } while (n < 0 && errno == EINTR);
    return n > 0;
}

harness_worker_status harness_worker_call(harness_worker *w, const gm_case *c, gm_outputs *out,
                                          double limit_s, char *what, size_t size) {
    gm_error err = {0};
    if (w->pid == 0 && !harness_worker_spawn(w, &err)) {
        snprintf(what, size, "the worker did not start again: %s", err.msg);
        return HARNESS_WORKER_DIED;
    }
    size_t n = 0;
    char *bytes = harness_wire_case_encode(c, &n);
    bool sent = bytes != NULL && harness_wire_send(w->fd, HARNESS_WIRE_RUN, bytes, n);
    free(bytes);
    double limit = limit_s > 0 && w->timeout_s > 0 ? limit_s : w->timeout_s;
    if (sent && !harness_worker_answers_in_time(w, limit)) {
        snprintf(what, size, "no answer within %.3g s (the worker was killed)", limit);
        harness_worker_reap(w);
        w->hangs++;
        return HARNESS_WORKER_HUNG;
    }
    harness_wire_type type = HARNESS_WIRE_STOP;
    char *payload = NULL;
    size_t len = 0;
    bool answered = sent && harness_wire_receive(w->fd, &type, &payload, &len);
    harness_worker_status s = HARNESS_WORKER_OK;
    if (!(answered && type == HARNESS_WIRE_RESULT &&
          harness_wire_case_outputs_decode(payload, len, out))) {
        s = answered && type == HARNESS_WIRE_DEVICE_ERROR ? HARNESS_WORKER_DEVICE_ERROR
                                                          : HARNESS_WORKER_DIED;
        if (s == HARNESS_WORKER_DEVICE_ERROR) {
            snprintf(what, size, "%.2000s", payload);
        } else {
            harness_worker_death(w, what, size);
        }
        harness_worker_reap(w);
        w->restarts++;
    }
    free(payload);
    return s;
}
