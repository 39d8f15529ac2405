#include "harness_pyworker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "harness_pybatch.h"
#include "harness_wire.h"

#ifndef GMFUZZ_SOURCE_DIR
#error "GMFUZZ_SOURCE_DIR must be defined by the build (harness/CMakeLists.txt)"
#endif

/* Message types of docs/TARGETS.md. */
enum {
    HARNESS_PY_HELLO = 1,
    HARNESS_PY_REFUSED = 2,
    HARNESS_PY_DEVICE_ERROR = 5,
    HARNESS_PY_STOP = 6,
    /* 7 CALL and 8 RETURN, the inline forms, are python/worker_client.py's;
     * gmfuzz sends its calls placed (harness_pybatch.h) */
    HARNESS_PY_SHARE = 9,
    HARNESS_PY_CALL_PLACED = 10,
    HARNESS_PY_RETURN_PLACED = 11,
    HARNESS_PY_JIT = 12,
};

/* A JIT message's events (python/gmfuzz_jit.py). */
enum { HARNESS_PY_JIT_STARTED = 1, HARNESS_PY_JIT_COMPILED = 2, HARNESS_PY_JIT_LOADED = 3 };

#define HARNESS_PYWORKER_MAX_PAYLOAD ((uint64_t)1 << 34)

struct harness_pyworker {
    harness_pyworker_config cfg;
    char module[1024], function[128];
    pid_t pid; /* 0: none running */
    int fd;
    gm_target_record identity;
    unsigned restarts[HARNESS_PYCALL_HUNG + 1];
    uint64_t block_id; /* the block (harness_pybatch_block) it has mapped; 0: none */
    bool sees_jit;     /* its HELLO names a JIT it watches */
};

/* ---- time and bytes ------------------------------------------------------ */

static double harness_pyworker_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef enum { HARNESS_IO_OK, HARNESS_IO_CLOSED, HARNESS_IO_TIMEOUT } harness_io;

static harness_io harness_pyworker_wait(int fd, double deadline) {
    for (;;) {
        double left = deadline - harness_pyworker_now();
        if (left <= 0) {
            return HARNESS_IO_TIMEOUT;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1000.0) + 1;
        int n = poll(&p, 1, ms);
        if (n > 0) {
            return HARNESS_IO_OK;
        }
        if (n < 0 && errno != EINTR) {
            return HARNESS_IO_CLOSED;
        }
    }
}

static harness_io harness_pyworker_read(int fd, void *data, size_t len, double deadline) {
    char *p = data;
    while (len > 0) {
        harness_io w = harness_pyworker_wait(fd, deadline);
        if (w != HARNESS_IO_OK) {
            return w;
        }
        ssize_t n = recv(fd, p, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return HARNESS_IO_CLOSED;
        }
        p += n;
        len -= (size_t)n;
    }
    return HARNESS_IO_OK;
}

/* The worker protocol's frame is harness_wire's (type, reserved, u64 length). */
static bool harness_pyworker_send(int fd, uint32_t type, const void *payload, size_t len) {
    return harness_wire_send(fd, (harness_wire_type)type, payload, len);
}

/* One message into a malloc'd, NUL-terminated payload. */
static harness_io harness_pyworker_receive(int fd, double deadline, uint32_t *type, char **payload,
                                           size_t *len) {
    uint32_t head[4];
    *payload = NULL;
    harness_io r = harness_pyworker_read(fd, head, sizeof head, deadline);
    uint64_t n = (uint64_t)head[2] | ((uint64_t)head[3] << 32);
    if (r != HARNESS_IO_OK) {
        return r;
    }
    if (n > HARNESS_PYWORKER_MAX_PAYLOAD || (*payload = malloc((size_t)n + 1)) == NULL) {
        return HARNESS_IO_CLOSED;
    }
    r = harness_pyworker_read(fd, *payload, (size_t)n, deadline);
    (*payload)[n] = '\0';
    *type = head[0];
    *len = (size_t)n;
    return r;
}

/* ---- the process --------------------------------------------------------- */

static const char *harness_pyworker_python(void) {
    const char *p = getenv("GMFUZZ_PYTHON");
    return p != NULL && p[0] != '\0' ? p : "python3";
}

/* In the child: fd 3 is the socket, stdin /dev/null, stdout -> stderr;
 * the worker dies with its parent and has a process group of its own (so
 * that a hang is killed with whatever it started). */
static void harness_pyworker_exec(const harness_pyworker *w, int sock) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (sock == 3) {
        fcntl(3, F_SETFD, 0);
    } else if (dup2(sock, 3) < 0) {
        _exit(127);
    }
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
    }
    dup2(2, 1);
    char script[1200];
    const char *dir = getenv("GMFUZZ_PYTHON_DIR");
    snprintf(script, sizeof script, "%s/gmfuzz_worker.py",
             dir != NULL && dir[0] != '\0' ? dir : GMFUZZ_SOURCE_DIR "/python");
    const char *role = w->cfg.role == HARNESS_PYWORKER_FUSED ? "fused" : "legacy";
    const char *device = w->cfg.device_cpu ? "cpu" : "cuda";
    const char *python = harness_pyworker_python();
    execlp(python, python, "-u", "-B", script, "--fd", "3", "--role", role, "--module", w->module,
           "--function", w->function, "--device", device, (char *)NULL);
    fprintf(stderr, "gmfuzz: cannot run %s: %s\n", python, strerror(errno));
    _exit(127);
}

static void harness_pyworker_kill(harness_pyworker *w) {
    if (w->pid > 0) {
        kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
    }
    if (w->fd >= 0) {
        close(w->fd);
    }
    w->pid = 0;
    w->fd = -1;
}

/* How the worker ended, once it is gone ("killed by signal 11 (SIGSEGV)"). */
static void harness_pyworker_reap(harness_pyworker *w, char *out, size_t size) {
    int status = 0;
    pid_t pid = w->pid;
    snprintf(out, size, "the worker closed its socket");
    if (pid > 0) {
        double deadline = harness_pyworker_now() + 2.0;
        pid_t got = 0;
        while ((got = waitpid(pid, &status, WNOHANG)) == 0 && harness_pyworker_now() < deadline) {
            nanosleep(&(struct timespec){0, 5000000}, NULL);
        }
        if (got == pid && WIFSIGNALED(status)) {
            snprintf(out, size, "the worker was killed by signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        } else if (got == pid && WIFEXITED(status)) {
            snprintf(out, size, "the worker exited with status %d", WEXITSTATUS(status));
        }
        if (got == pid) {
            w->pid = 0;
        }
    }
    harness_pyworker_kill(w);
}

static char *harness_pyworker_json_string(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(item)) {
        return NULL;
    }
    size_t n = strlen(item->valuestring) + 1;
    char *s = malloc(n);
    if (s != NULL) {
        memcpy(s, item->valuestring, n);
    }
    return s;
}

static void harness_pyworker_read_hello(harness_pyworker *w, const char *json) {
    gm_target_record_free(&w->identity);
    cJSON *o = cJSON_Parse(json);
    gm_target_record *t = &w->identity;
    t->module = harness_pyworker_json_string(o, "module");
    t->function = harness_pyworker_json_string(o, "function");
    t->file = harness_pyworker_json_string(o, "file");
    t->sha256 = harness_pyworker_json_string(o, "sha256");
    t->version = harness_pyworker_json_string(o, "version");
    t->device = harness_pyworker_json_string(o, "device");
    w->sees_jit = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "jit"));
    cJSON_Delete(o);
}

static bool harness_pyworker_spawn(harness_pyworker *w, gm_error *err) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        return gm_error_set(err, GM_ERR_DEVICE, "python target: socketpair: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return gm_error_set(err, GM_ERR_DEVICE, "python target: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        harness_pyworker_exec(w, sv[1]);
    }
    close(sv[1]);
    w->pid = pid;
    w->fd = sv[0];
    w->block_id = 0; /* a new worker has no block mapped */
    uint32_t type = 0;
    char *payload = NULL;
    size_t len = 0;
    harness_io r = harness_pyworker_receive(w->fd, harness_pyworker_now() + w->cfg.start_timeout_s,
                                            &type, &payload, &len);
    bool hello = r == HARNESS_IO_OK && type == HARNESS_PY_HELLO;
    if (hello) {
        harness_pyworker_read_hello(w, payload);
    } else {
        char how[200];
        harness_pyworker_reap(w, how, sizeof how);
        const char *role = w->cfg.role == HARNESS_PYWORKER_FUSED ? "fused" : "legacy";
        const char *module = w->module[0] ? w->module : "(default)";
        if (r == HARNESS_IO_TIMEOUT) {
            /* Not the target's verdict on a case: it never got that far. */
            gm_error_set(err, GM_ERR_START,
                         "target did not start within %g s (--target-start-timeout): the "
                         "python worker (%s %s, module '%s') had not finished its start-up "
                         "(import, HELLO)",
                         w->cfg.start_timeout_s, harness_pyworker_python(), role, module);
        } else {
            gm_error_set(err, GM_ERR_DEVICE, "python target (%s %s, module '%s'): %.1500s",
                         harness_pyworker_python(), role, module,
                         r == HARNESS_IO_OK && type == HARNESS_PY_REFUSED ? payload : how);
        }
    }
    free(payload);
    return hello;
}

bool harness_pyworker_start(const harness_pyworker_config *cfg, harness_pyworker **out,
                            gm_error *err) {
    *out = NULL;
    harness_pyworker *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory starting a python worker");
    }
    w->cfg = *cfg;
    w->fd = -1;
    snprintf(w->module, sizeof w->module, "%s", cfg->module ? cfg->module : "");
    snprintf(w->function, sizeof w->function, "%s", cfg->function ? cfg->function : "");
    w->cfg.module = w->module;
    w->cfg.function = w->function;
    if (w->cfg.timeout_s <= 0) {
        w->cfg.timeout_s = 10.0;
    }
    if (w->cfg.compile_timeout_s <= 0) {
        w->cfg.compile_timeout_s = 300.0;
    }
    if (w->cfg.start_timeout_s <= 0) {
        w->cfg.start_timeout_s = HARNESS_TARGET_DEFAULT_START_TIMEOUT_S;
    }
    if (!harness_pyworker_spawn(w, err)) {
        gm_target_record_free(&w->identity);
        free(w);
        return false;
    }
    *out = w;
    return true;
}

void harness_pyworker_stop(harness_pyworker *w) {
    if (w == NULL) {
        return;
    }
    if (w->fd >= 0 && harness_pyworker_send(w->fd, HARNESS_PY_STOP, NULL, 0)) {
        char how[200];
        harness_pyworker_reap(w, how, sizeof how); /* a clean exit releases the GPU */
    }
    harness_pyworker_kill(w);
    gm_target_record_free(&w->identity);
    free(w);
}

const gm_target_record *harness_pyworker_identity(const harness_pyworker *w) {
    return &w->identity;
}

unsigned harness_pyworker_restarts(const harness_pyworker *w, harness_pycall_status cause) {
    return (unsigned)cause <= HARNESS_PYCALL_HUNG ? w->restarts[cause] : 0;
}

/* ---- one batch ----------------------------------------------------------- */

typedef struct {
    const char *p;
    size_t left;
} harness_pyworker_reader;

static bool harness_pyworker_reader_take(harness_pyworker_reader *r, void *out, size_t n) {
    if (n > r->left) {
        return false;
    }
    if (out != NULL) {
        memcpy(out, r->p, n);
    }
    r->p += n;
    r->left -= n;
    return true;
}

/* "TYPE: MESSAGE" of a raised call. */
static bool harness_pyworker_read_raised(harness_pyworker_reader *r, harness_pycall_result *res) {
    uint32_t n_type = 0, n_msg = 0;
    if (!harness_pyworker_reader_take(r, &n_type, 4) || n_type > r->left) {
        return false;
    }
    const char *type = r->p;
    harness_pyworker_reader_take(r, NULL, n_type);
    if (!harness_pyworker_reader_take(r, &n_msg, 4) || n_msg > r->left) {
        return false;
    }
    snprintf(res->message, sizeof res->message, "%.*s: %.*s", (int)(n_type > 100 ? 100 : n_type),
             type, (int)(n_msg > 2000 ? 2000 : n_msg), r->p);
    harness_pyworker_reader_take(r, NULL, n_msg);
    return true;
}

/* RETURN_PLACED: a status per call; a returned call's OUT tensors are read
 * from the block, where the worker left them. */
static bool harness_pyworker_read_return(harness_pybatch *b, const char *payload, size_t len,
                                         harness_pycall_result *results) {
    harness_pyworker_reader r = {payload, len};
    uint32_t count = 0;
    if (!harness_pyworker_reader_take(&r, &count, 4) || count != b->count) {
        return false;
    }
    for (size_t k = 0; k < b->count; k++) {
        uint8_t status = 0;
        if (!harness_pyworker_reader_take(&r, &status, 1) || status > 1) {
            return false;
        }
        results[k].message[0] = '\0';
        if (status == 1) {
            results[k].status = HARNESS_PYCALL_RAISED;
            if (!harness_pyworker_read_raised(&r, &results[k])) {
                return false;
            }
            continue;
        }
        results[k].status = HARNESS_PYCALL_RETURNED;
        for (size_t o = b->call_first_out[k]; o < b->call_first_out[k + 1]; o++) {
            memcpy(b->outs[o].data, b->block.base + b->outs[o].offset, b->outs[o].bytes);
        }
    }
    return r.left == 0;
}

/* SHARE (the block, its memfd passed along) where the worker has another
 * one mapped, then CALL_PLACED. */
static bool harness_pyworker_send_call(harness_pyworker *w, const harness_pybatch *b) {
    if (w->block_id != b->block.id) {
        uint64_t size = b->block.size;
        if (!harness_wire_send_fd(w->fd, (harness_wire_type)HARNESS_PY_SHARE, &size, sizeof size,
                                  b->block.fd)) {
            return false;
        }
        w->block_id = b->block.id;
    }
    return harness_pyworker_send(w->fd, HARNESS_PY_CALL_PLACED, b->bytes, b->len);
}

static void harness_pyworker_fail_all(harness_pybatch *b, harness_pycall_result *results,
                                      harness_pycall_status status, const char *what) {
    for (size_t k = 0; k < b->count; k++) {
        results[k].status = status;
        snprintf(results[k].message, sizeof results[k].message, "%s", what);
    }
}

bool harness_pyworker_sees_jit(const harness_pyworker *w) { return w->sees_jit; }

/* A JIT message (docs/TARGETS.md): u32 call, u8 event, f64 seconds, then
 * the key's text. The event is counted on its call; false when malformed. */
static bool harness_pyworker_read_jit(const char *payload, size_t len, harness_pybatch *b,
                                      harness_pycall_result *results, uint8_t *event) {
    uint32_t call = 0;
    double seconds = 0;
    if (len < 13) {
        return false;
    }
    memcpy(&call, payload, 4);
    *event = (uint8_t)payload[4];
    memcpy(&seconds, payload + 5, 8);
    if (call >= b->count || *event < HARNESS_PY_JIT_STARTED || *event > HARNESS_PY_JIT_LOADED) {
        return false;
    }
    harness_pycall_result *r = &results[call];
    r->compiles += *event == HARNESS_PY_JIT_COMPILED;
    r->loads += *event == HARNESS_PY_JIT_LOADED;
    r->jit_s += *event == HARNESS_PY_JIT_STARTED || !(seconds > 0) ? 0.0 : seconds;
    return true;
}

/* The batch's answer, after any JIT messages: while a compile or a load is
 * under way the deadline is the compile limit, else the execution limit
 * counted from the last JIT message (or the send); never past the
 * execution limit plus one compile limit a call, so that a target that
 * keeps saying it compiles still ends. */
static harness_io harness_pyworker_answer(harness_pyworker *w, harness_pybatch *b,
                                          harness_pycall_result *results, double limit,
                                          uint32_t *type, char **payload, size_t *len,
                                          bool *compiling) {
    double now = harness_pyworker_now(), deadline = now + limit;
    double last = now + limit + w->cfg.compile_timeout_s * (double)b->count;
    *compiling = false;
    for (;;) {
        harness_io r = harness_pyworker_receive(w->fd, deadline, type, payload, len);
        if (r != HARNESS_IO_OK || *type != HARNESS_PY_JIT) {
            return r;
        }
        uint8_t event = 0;
        if (!harness_pyworker_read_jit(*payload, *len, b, results, &event)) {
            return HARNESS_IO_CLOSED;
        }
        free(*payload);
        *payload = NULL;
        *compiling = event == HARNESS_PY_JIT_STARTED;
        deadline = harness_pyworker_now() + (*compiling ? w->cfg.compile_timeout_s : limit);
        deadline = deadline < last ? deadline : last;
    }
}

bool harness_pyworker_call(harness_pyworker *w, harness_pybatch *b, harness_pycall_result *results,
                           double limit_s, gm_error *err) {
    if (!b->failed && b->count == 0) {
        return true;
    }
    if (b->failed) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory building a batch of calls");
    }
    if (w->pid == 0 && !harness_pyworker_spawn(w, err)) {
        return false;
    }
    for (size_t k = 0; k < b->count; k++) {
        results[k].compiles = results[k].loads = 0;
        results[k].jit_s = 0;
    }
    /* The timeout is one call's; a batch adds a little per call. */
    double limit = (limit_s > 0 ? limit_s : w->cfg.timeout_s) + 0.05 * (double)b->count;
    uint32_t type = 0;
    char *payload = NULL;
    size_t len = 0;
    bool compiling = false;
    harness_io r = harness_pyworker_send_call(w, b)
                       ? harness_pyworker_answer(w, b, results, limit, &type, &payload, &len,
                                                 &compiling)
                       : HARNESS_IO_CLOSED;
    bool ok = r == HARNESS_IO_OK && type == HARNESS_PY_RETURN_PLACED &&
              harness_pyworker_read_return(b, payload, len, results);
    if (!ok) {
        char what[HARNESS_PYCALL_MESSAGE_MAX];
        harness_pycall_status cause =
            r == HARNESS_IO_TIMEOUT ? HARNESS_PYCALL_HUNG : HARNESS_PYCALL_CRASHED;
        if (cause == HARNESS_PYCALL_HUNG) {
            snprintf(what, sizeof what,
                     compiling ? "a compile or load did not finish within %.3g s (the worker "
                                 "was killed)"
                               : "no answer within %.3g s (the worker was killed)",
                     compiling ? w->cfg.compile_timeout_s : limit);
            harness_pyworker_kill(w);
        } else if (r == HARNESS_IO_OK && type == HARNESS_PY_DEVICE_ERROR) {
            snprintf(what, sizeof what, "device error: %.2000s", payload);
            harness_pyworker_kill(w);
        } else {
            harness_pyworker_reap(w, what, sizeof what);
        }
        w->restarts[cause]++;
        harness_pyworker_fail_all(b, results, cause, what);
    }
    free(payload);
    return true;
}
