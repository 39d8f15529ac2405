/* harness_hub: the target hub, one process that runs a target for every job of a campaign
 * (docs/TARGETS.md, "The target hub").
 *
 * Why: a GPU serves the synchronizations of ONE process quickly (54,000
 * launch+sync round trips a second on the H200) but time-slices between
 * processes that each hold a CUDA context (16 processes: 11,000 in all,
 * 700 each). So a campaign of N jobs on a GPU target starts a few hubs;
 * each hub owns the target (its worker, its context) and serves its jobs:
 * it collects the cases every job has sent, runs them as one batch (one
 * round trip to a Python worker), and answers each job. The jobs keep
 * everything else (the reference, the screen by the fused model, the
 * oracle), so the hub does only what needs the GPU.
 *
 * A hub listens on a Linux abstract Unix socket ("@NAME": no file, no path
 * length limit, gone with the process). Its six messages, every field, are
 * described in one place: harness_hub_wire.h, whose .c alone writes and
 * reads them.
 * The hub runs the target raw: no screen, no deviation check, no saving;
 * the client does those, as it does for a worker of its own.
 */
#define _GNU_SOURCE /* accept4 */
#include "harness.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "harness_backend.h"
#include "harness_backend_cpu.h"
#include "harness_backend_cuda.h"
#include "harness_hub_wire.h"
#include "harness_wire.h"
#include "harness_wire_case.h"

#define HARNESS_HUB_CLIENTS_MAX 1024
#define HARNESS_HUB_POLL_MS 250 /* how often the loop looks at *stop and the parent */

/* One round: every case the clients sent, in order, with its client. */
typedef struct {
    gm_case *cases;
    gm_outputs *outs;
    const gm_case **ptrs;
    harness_pycall_result *results;
    int *owner; /* index into the client table */
    size_t n, cap;
    double limit_s; /* a call's limit asked for (the largest of its batches'); 0: none */
    size_t max_bytes; /* the largest encoded case seen */
    uint64_t all_bytes;
    /* launches laid out in the clients' shared blocks (PLACED batches) */
    harness_layout_launch *launches;
    harness_hub_placed_answer *answers;
    int *placed_owner;
    size_t n_placed, placed_cap;
} harness_hub_round;

/* A client's shared block (SHARE): mapped here, pinned on CUDA. */
typedef struct {
    unsigned char *base;
    size_t size;
    bool pinned;
} harness_hub_share;

/* What the lanes of a hub share: read-only but for `ended`. */
typedef struct {
    int listen_fd; /* non-blocking: the lanes race to accept */
    char *hello;
    size_t hello_len;
    volatile sig_atomic_t *stop;
    pid_t parent;
    atomic_bool ended; /* a lane failed: every lane ends */
} harness_hub_shared;

/* One lane of a hub: a thread with clients of its own and its own engine.
 * A builtin target runs in every lane (CUDA: one stream each, in the one
 * context of the process), an external one in a single lane. */
typedef struct {
    harness_hub_shared *shared;
    harness_backend *backend;   /* external targets */
    harness_backend_cuda *cuda; /* builtin CUDA targets: in this very process */
    bool cpu;              /* builtin:cpu, in this very process */
    bool device_broken;    /* a CUDA error: the hub ends after answering */
    int listen_fd;
    int fds[HARNESS_HUB_CLIENTS_MAX];
    bool asked[HARNESS_HUB_CLIENTS_MAX];  /* sent a batch this round (an empty one too) */
    bool placed[HARNESS_HUB_CLIENTS_MAX]; /* ... and it was a PLACED one */
    harness_hub_share shares[HARNESS_HUB_CLIENTS_MAX];
    size_t n_clients;
    harness_hub_round round;
    char *hello;
    size_t hello_len;
    harness_hub_stats stats;
    bool ok;
    gm_error err;
} harness_hub;

static double harness_hub_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool harness_hub_round_room(harness_hub_round *r, size_t more) {
    if (r->n + more <= r->cap) {
        return true;
    }
    size_t cap = r->cap ? r->cap : 64;
    while (cap < r->n + more) {
        cap *= 2;
    }
    gm_case *cases = realloc(r->cases, cap * sizeof *cases);
    r->cases = cases ? cases : r->cases;
    gm_outputs *outs = realloc(r->outs, cap * sizeof *outs);
    r->outs = outs ? outs : r->outs;
    const gm_case **ptrs = realloc(r->ptrs, cap * sizeof *ptrs);
    r->ptrs = ptrs ? ptrs : r->ptrs;
    harness_pycall_result *results = realloc(r->results, cap * sizeof *results);
    r->results = results ? results : r->results;
    int *owner = realloc(r->owner, cap * sizeof *owner);
    r->owner = owner ? owner : r->owner;
    if (!cases || !outs || !ptrs || !results || !owner) {
        return false;
    }
    r->cap = cap;
    return true;
}

static bool harness_hub_round_room_placed(harness_hub_round *r) {
    if (r->n_placed < r->placed_cap) {
        return true;
    }
    size_t cap = r->placed_cap ? r->placed_cap * 2 : 64;
    harness_layout_launch *l = realloc(r->launches, cap * sizeof *l);
    r->launches = l ? l : r->launches;
    harness_hub_placed_answer *a = realloc(r->answers, cap * sizeof *a);
    r->answers = a ? a : r->answers;
    int *o = realloc(r->placed_owner, cap * sizeof *o);
    r->placed_owner = o ? o : r->placed_owner;
    if (!l || !a || !o) {
        return false;
    }
    r->placed_cap = cap;
    return true;
}

static void harness_hub_round_clear(harness_hub_round *r) {
    for (size_t i = 0; i < r->n; i++) {
        gm_case_free(&r->cases[i]);
        gm_outputs_free(&r->outs[i]);
    }
    r->n = 0;
    r->n_placed = 0;
    r->limit_s = 0;
}

static void harness_hub_round_free(harness_hub_round *r) {
    harness_hub_round_clear(r);
    free(r->cases);
    free(r->outs);
    free(r->ptrs);
    free(r->results);
    free(r->owner);
    free(r->launches);
    free(r->answers);
    free(r->placed_owner);
}

/* Adds one encoded case of client `owner` to the round. */
static bool harness_hub_round_add(void *ctx, int owner, const char *bytes, size_t len) {
    harness_hub_round *r = ctx;
    r->max_bytes = len > r->max_bytes ? len : r->max_bytes;
    r->all_bytes += len;
    if (!harness_hub_round_room(r, 1)) {
        return false;
    }
    size_t i = r->n;
    gm_case_init(&r->cases[i]);
    gm_outputs_init(&r->outs[i]);
    gm_error err = {0};
    if (!harness_wire_case_decode(bytes, len, &r->cases[i], &err) ||
        !gm_outputs_prepare(&r->outs[i], &r->cases[i], &err)) {
        gm_case_free(&r->cases[i]);
        gm_outputs_free(&r->outs[i]);
        return false;
    }
    r->owner[i] = owner;
    r->n++;
    return true;
}

/* Forgets client k's shared block. */
static void harness_hub_unshare(harness_hub *h, size_t k) {
    harness_hub_share *sh = &h->shares[k];
    if (sh->base != NULL) {
        if (sh->pinned) {
            harness_backend_cuda_unpin(h->cuda, sh->base);
        }
        munmap(sh->base, sh->size);
    }
    memset(sh, 0, sizeof *sh);
}

static void harness_hub_drop_client(harness_hub *h, size_t k) {
    close(h->fds[k]);
    h->fds[k] = -1;
    harness_hub_unshare(h, k);
}

/* SHARE: client k's block (a memfd) replaces the one it had. */
static bool harness_hub_take_share(harness_hub *h, size_t k, const char *payload, size_t len,
                                   int fd) {
    uint64_t size = 0;
    if (fd < 0 || !harness_hub_wire_read_share(payload, len, &size) || size == 0 ||
        size > ((uint64_t)1 << 40)) {
        return false;
    }
    void *base = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        return false;
    }
    harness_hub_unshare(h, k);
    h->shares[k] = (harness_hub_share){base, (size_t)size, false};
    h->shares[k].pinned = h->cuda != NULL && harness_backend_cuda_pin(h->cuda, base, (size_t)size);
    h->stats.blocks++;
    h->stats.pinned += h->shares[k].pinned;
    return true;
}

/* Adds one launch of client `owner`'s PLACED batch, once it is found to lie
 * inside the client's block. */
static bool harness_hub_round_add_placed(void *ctx, int owner, const harness_layout_launch *l) {
    harness_hub *h = ctx;
    harness_hub_round *r = &h->round;
    const char *why = NULL;
    if (h->shares[owner].base == NULL ||
        !harness_layout_check(&l->params, &l->span, h->shares[owner].size, &why) ||
        !harness_hub_round_room_placed(r)) {
        return false;
    }
    size_t bytes = l->span.end - l->span.begin;
    r->max_bytes = bytes > r->max_bytes ? bytes : r->max_bytes;
    r->all_bytes += bytes;
    r->launches[r->n_placed] = *l;
    r->placed_owner[r->n_placed++] = owner;
    return true;
}

/* Reads one message of client k: a BATCH or PLACED batch into the round,
 * or its shared block; a client that hung up or sent something else is
 * dropped. */
static void harness_hub_read_client(harness_hub *h, size_t k) {
    harness_wire_type type;
    char *payload = NULL;
    size_t len = 0;
    int fd = -1;
    bool ok = harness_wire_receive_fd(h->fds[k], &type, &payload, &len, &fd);
    bool batch = ok && (type == HARNESS_WIRE_BATCH || type == HARNESS_WIRE_PLACED);
    size_t placed_before = h->round.n_placed;
    if (ok && type == HARNESS_WIRE_BATCH) {
        double limit_s = 0;
        ok = harness_hub_wire_each_case(payload, len, &h->round, (int)k, &limit_s,
                                        harness_hub_round_add);
        h->round.limit_s = limit_s > h->round.limit_s ? limit_s : h->round.limit_s;
    } else if (ok && type == HARNESS_WIRE_PLACED) {
        ok = harness_hub_wire_each_placed(payload, len, h, (int)k, harness_hub_round_add_placed);
    } else if (ok && type == HARNESS_WIRE_SHARE) {
        ok = harness_hub_take_share(h, k, payload, len, fd);
    } else {
        ok = false;
    }
    if (fd >= 0) {
        close(fd); /* mapped (or refused): the mapping keeps the memory */
    }
    free(payload);
    if (!ok) {
        h->round.n_placed = placed_before; /* nothing of a refused batch runs */
        harness_hub_drop_client(h, k);
    }
    h->asked[k] = ok && batch;
    h->placed[k] = ok && type == HARNESS_WIRE_PLACED;
}

static void harness_hub_accept(harness_hub *h) {
    int fd = accept4(h->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        return;
    }
    size_t k = 0;
    while (k < h->n_clients && h->fds[k] >= 0) {
        k++;
    }
    if (k == HARNESS_HUB_CLIENTS_MAX ||
        !harness_wire_send(fd, HARNESS_WIRE_HELLO, h->hello, h->hello_len)) {
        close(fd);
        return;
    }
    h->fds[k] = fd;
    h->n_clients = k == h->n_clients ? k + 1 : h->n_clients;
}

/* builtin:cpu: the host execution, here. */
static void harness_hub_run_cpu(harness_hub *h) {
    harness_hub_round *r = &h->round;
    for (size_t i = 0; i < r->n; i++) {
        gm_error e = {0};
        bool ran = harness_backend_cpu_run(r->ptrs[i], &r->outs[i], &e);
        r->results[i].status = ran ? HARNESS_PYCALL_RETURNED : HARNESS_PYCALL_CRASHED;
        snprintf(r->results[i].message, sizeof r->results[i].message, "%s", ran ? "" : e.msg);
    }
}

/* A builtin CUDA target runs here, with no worker between the hub and the
 * GPU (one hop less per case). A CUDA error may be sticky, so after one the
 * cases left are not run, every case is answered, and the hub ends: the
 * campaign starts a fresh one (a fresh context) and the clients reconnect. */
static void harness_hub_run_cuda(harness_hub *h) {
    harness_hub_round *r = &h->round;
    for (size_t i = 0; i < r->n; i++) {
        harness_pycall_result *res = &r->results[i];
        gm_error e = {0};
        if (h->device_broken) {
            res->status = HARNESS_PYCALL_CRASHED;
            snprintf(res->message, sizeof res->message,
                     "not run: the device failed on an earlier case of the batch");
        } else if (harness_backend_cuda_run(h->cuda, r->ptrs[i], &r->outs[i], &e)) {
            res->status = HARNESS_PYCALL_RETURNED;
            res->message[0] = '\0';
        } else {
            res->status = HARNESS_PYCALL_CRASHED;
            snprintf(res->message, sizeof res->message, "%s", e.msg);
            h->device_broken = true;
        }
    }
}

/* The placed launches of one client, [first, end) of the round, in its
 * block: on the host in place, or through the device. */
static void harness_hub_run_share(harness_hub *h, size_t first, size_t end) {
    harness_hub_round *r = &h->round;
    harness_hub_share *sh = &h->shares[r->placed_owner[first]];
    for (size_t i = first; i < end; i++) {
        r->answers[i].result.status = HARNESS_PYCALL_RETURNED;
        r->answers[i].result.message[0] = '\0';
        r->answers[i].error[0] = '\0';
    }
    if (h->cpu) {
        for (size_t i = first; i < end; i++) {
            fused_params p = r->launches[i].params;
            harness_layout_rebase(&p, (uintptr_t)sh->base);
            harness_backend_cpu_launch(&p, r->answers[i].error, sizeof r->answers[i].error);
        }
        return;
    }
    gm_error e = {0};
    char errors[64][HARNESS_HUB_ERROR_MAX];
    for (size_t i = first; i < end && !h->device_broken; i += 64) {
        size_t n = end - i < 64 ? end - i : 64;
        if (!harness_backend_cuda_run_block(h->cuda, sh->base, &r->launches[i], n, errors[0],
                                            HARNESS_HUB_ERROR_MAX, &e)) {
            h->device_broken = true;
            break;
        }
        for (size_t j = 0; j < n; j++) {
            memcpy(r->answers[i + j].error, errors[j], HARNESS_HUB_ERROR_MAX);
        }
    }
    for (size_t i = first; i < end && h->device_broken; i++) {
        harness_pycall_result *res = &r->answers[i].result;
        res->status = HARNESS_PYCALL_CRASHED;
        snprintf(res->message, sizeof res->message, "%s",
                 e.msg[0] ? e.msg : "not run: the device failed on an earlier case of the batch");
    }
}

static void harness_hub_run_placed(harness_hub *h) {
    harness_hub_round *r = &h->round;
    for (size_t first = 0, end; first < r->n_placed; first = end) {
        end = first + 1;
        while (end < r->n_placed && r->placed_owner[end] == r->placed_owner[first]) {
            end++;
        }
        harness_hub_run_share(h, first, end);
    }
}

static bool harness_hub_run_target(harness_hub *h, gm_error *err) {
    harness_hub_round *r = &h->round;
    if (h->cuda != NULL || h->cpu) {
        h->cpu ? harness_hub_run_cpu(h) : harness_hub_run_cuda(h);
        harness_hub_run_placed(h);
        return true;
    }
    return harness_backend_run_raw(h->backend, r->ptrs, r->outs, r->n, r->limit_s, r->results,
                                   err);
}

static harness_backend_restarts harness_hub_restarts(const harness_hub *h) {
    return h->backend ? harness_backend_restart_counts(h->backend) : (harness_backend_restarts){0};
}

/* The round on the target, then each client's answers. The restarts the
 * round caused go to the first client with a failed case. */
static bool harness_hub_run_round(harness_hub *h, gm_error *err) {
    harness_hub_round *r = &h->round;
    bool any = false;
    for (size_t k = 0; k < h->n_clients; k++) {
        any = any || h->asked[k];
    }
    if (!any) {
        return true;
    }
    for (size_t i = 0; i < r->n; i++) {
        r->ptrs[i] = &r->cases[i]; /* now: the cases array moved as it grew */
    }
    if (r->n > 0) { /* no JIT counts but the target's (placed rounds have no results) */
        memset(r->results, 0, r->n * sizeof *r->results);
    }
    for (size_t i = 0; i < r->n_placed; i++) {
        memset(&r->answers[i].result, 0, sizeof r->answers[i].result);
    }
    harness_backend_restarts before = harness_hub_restarts(h);
    double t0 = harness_hub_now();
    if (!harness_hub_run_target(h, err)) {
        return false;
    }
    double t1 = harness_hub_now();
    harness_hub_stats *st = &h->stats;
    st->rounds++;
    st->cases += r->n + r->n_placed;
    st->target_s += t1 - t0;
    if (t1 - t0 >= HARNESS_HUB_SLOW_ROUND_S) {
        st->slow_rounds++;
        st->slow_s += t1 - t0;
    }
    if (t1 - t0 > st->max_round_s) {
        st->max_round_s = t1 - t0;
        st->max_round_cases = r->n + r->n_placed;
    }
    harness_backend_restarts after = harness_hub_restarts(h);
    harness_backend_restarts caused = {after.crashed - before.crashed, after.hung - before.hung};
    int blamed = -1;
    for (size_t i = 0; i < r->n && blamed < 0; i++) {
        blamed = r->results[i].status >= HARNESS_PYCALL_CRASHED ? r->owner[i] : -1;
    }
    for (size_t k = 0; k < h->n_clients; k++) {
        if (h->fds[k] < 0 || !h->asked[k]) {
            continue;
        }
        h->asked[k] = false;
        harness_backend_restarts mine = (int)k == blamed ? caused : (harness_backend_restarts){0};
        bool sent = h->placed[k]
                        ? harness_hub_wire_send_placed_answers(
                              h->fds[k], r->answers, r->placed_owner, r->n_placed, (int)k, mine)
                        : harness_hub_wire_send_answers(h->fds[k], r->results, r->outs, r->owner,
                                                        r->n, (int)k, mine);
        if (!sent) {
            harness_hub_drop_client(h, k);
        }
    }
    harness_hub_round_clear(r);
    st->answer_s += harness_hub_now() - t1;
    return !h->device_broken ||
           gm_error_set(err, GM_ERR_DEVICE, "a CUDA error: this hub ends, a fresh one follows");
}

/* Waits for clients and their batches; returns with a round to run (or
 * none when it is time to look at the stop flag). */
static void harness_hub_gather(harness_hub *h) {
    struct pollfd p[HARNESS_HUB_CLIENTS_MAX + 1];
    p[0] = (struct pollfd){.fd = h->listen_fd, .events = POLLIN};
    for (size_t k = 0; k < h->n_clients; k++) {
        p[k + 1] = (struct pollfd){.fd = h->fds[k], .events = POLLIN};
    }
    if (poll(p, h->n_clients + 1, HARNESS_HUB_POLL_MS) <= 0) {
        return;
    }
    size_t n_clients = h->n_clients;
    double t0 = harness_hub_now();
    for (size_t k = 0; k < n_clients; k++) {
        if (h->fds[k] >= 0 && p[k + 1].revents != 0) {
            harness_hub_read_client(h, k);
        }
    }
    h->stats.read_s += harness_hub_now() - t0;
    if (p[0].revents & POLLIN) {
        harness_hub_accept(h);
    }
}

static bool harness_hub_listen(harness_hub *h, const char *name, gm_error *err) {
    struct sockaddr_un a;
    unsigned len = 0;
    if (!harness_hub_wire_address(name, &a, &len)) {
        return gm_error_set(err, GM_ERR_USAGE, "target hub name '%s': empty or too long", name);
    }
    h->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (h->listen_fd < 0 || bind(h->listen_fd, (struct sockaddr *)&a, len) != 0 ||
        listen(h->listen_fd, 128) != 0) {
        return gm_error_set(err, GM_ERR_IO, "target hub @%s: %s", name, strerror(errno));
    }
    return true;
}

static bool harness_hub_in_process(const harness_target_spec *spec) {
    return spec->kind == HARNESS_TARGET_BUILTIN;
}

/* Builtin targets that run one launch at a time take shared blocks: the
 * host execution in place, cuda and cuda-raw through one upload (a
 * cuda-graph replays its own arena per shape, so it keeps BATCH). */
static bool harness_hub_takes_placed(const harness_target_spec *spec) {
    return harness_hub_in_process(spec) && spec->builtin != HARNESS_BACKEND_CUDA_GRAPH &&
           getenv("GMFUZZ_HUB_NO_SHARE") == NULL;
}

/* Lane k's engine; lane 0 also says HELLO's record. */
static bool harness_hub_open_lane(harness_hub *h, const harness_target_spec *spec, gm_error *err) {
    static const harness_cuda_mode modes[HARNESS_BACKEND_COUNT] = {
        [HARNESS_BACKEND_CUDA] = HARNESS_CUDA_CHECKED,
        [HARNESS_BACKEND_CUDA_GRAPH] = HARNESS_CUDA_GRAPH,
        [HARNESS_BACKEND_CUDA_RAW] = HARNESS_CUDA_RAW,
    };
    h->listen_fd = h->shared->listen_fd;
    if (!harness_hub_in_process(spec)) {
        return harness_backend_open_target(spec, &h->backend, err);
    }
    h->cpu = spec->builtin == HARNESS_BACKEND_CPU;
    return h->cpu || harness_backend_cuda_open(modes[spec->builtin], &h->cuda, err);
}

static void harness_hub_close_lane(harness_hub *h) {
    for (size_t k = 0; k < h->n_clients; k++) {
        if (h->fds[k] >= 0) {
            close(h->fds[k]);
        }
        harness_hub_unshare(h, k);
    }
    harness_hub_round_free(&h->round);
    harness_backend_close(h->backend);
    if (h->cuda != NULL) {
        harness_backend_cuda_close(h->cuda);
    }
}

static void *harness_hub_lane_main(void *arg) {
    harness_hub *h = arg;
    harness_hub_shared *sh = h->shared;
    h->hello = sh->hello;
    h->hello_len = sh->hello_len;
    h->ok = true;
    while (h->ok && !*sh->stop && !atomic_load(&sh->ended) &&
           (sh->parent <= 0 || getppid() == sh->parent)) {
        harness_hub_gather(h);
        h->ok = harness_hub_run_round(h, &h->err);
    }
    if (!h->ok) {
        atomic_store(&sh->ended, true);
    }
    if (h->cuda != NULL) {
        harness_backend_cuda_times t = harness_backend_cuda_times_of(h->cuda);
        h->stats.enqueue_s = t.enqueue_s;
        h->stats.sync_s = t.sync_s;
        h->stats.pin_s = t.pin_s;
        h->stats.grows = t.grows;
    }
    h->stats.max_case_bytes = h->round.max_bytes;
    h->stats.case_bytes = h->round.all_bytes;
    return NULL;
}

static void harness_hub_add_stats(harness_hub_stats *sum, const harness_hub_stats *s) {
    sum->rounds += s->rounds;
    sum->cases += s->cases;
    sum->read_s += s->read_s;
    sum->target_s += s->target_s;
    sum->answer_s += s->answer_s;
    sum->case_bytes += s->case_bytes;
    sum->slow_rounds += s->slow_rounds;
    sum->slow_s += s->slow_s;
    sum->blocks += s->blocks;
    sum->enqueue_s += s->enqueue_s;
    sum->sync_s += s->sync_s;
    sum->pin_s += s->pin_s;
    sum->grows += s->grows;
    sum->pinned += s->pinned;
    if (s->max_round_s > sum->max_round_s) {
        sum->max_round_s = s->max_round_s;
        sum->max_round_cases = s->max_round_cases;
    }
    sum->max_case_bytes = s->max_case_bytes > sum->max_case_bytes ? s->max_case_bytes
                                                                   : sum->max_case_bytes;
}

/* Runs lanes 1..n-1 in threads and lane 0 here; the first failure wins. */
static bool harness_hub_run_lanes(harness_hub *lanes, int n, harness_hub_stats *stats,
                                  gm_error *err) {
    pthread_t threads[HARNESS_HUB_LANES_MAX];
    int started = 1;
    for (int k = 1; k < n; k++) {
        started += pthread_create(&threads[k], NULL, harness_hub_lane_main, &lanes[k]) == 0;
    }
    harness_hub_lane_main(&lanes[0]);
    bool ok = true;
    for (int k = 0; k < n; k++) {
        if (k > 0 && k < started) {
            pthread_join(threads[k], NULL);
        }
        if (ok && !lanes[k].ok && k < started) {
            *err = lanes[k].err;
            ok = false;
        }
        if (stats != NULL) {
            harness_hub_add_stats(stats, &lanes[k].stats);
        }
    }
    return ok;
}

bool harness_hub_serve(const harness_target_spec *spec, const char *name, int lanes,
                       volatile sig_atomic_t *stop, pid_t parent, harness_hub_stats *stats,
                       gm_error *err) {
    int n = harness_hub_in_process(spec) ? (lanes < 1                       ? 1
                                            : lanes > HARNESS_HUB_LANES_MAX ? HARNESS_HUB_LANES_MAX
                                                                            : lanes)
                                         : 1;
    harness_hub_shared sh = {.listen_fd = -1, .stop = stop, .parent = parent};
    atomic_init(&sh.ended, false);
    harness_hub *h = calloc((size_t)n, sizeof *h);
    if (h == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %d hub lanes", n);
    }
    if (stats != NULL) {
        memset(stats, 0, sizeof *stats);
    }
    bool ok = true;
    for (int k = 0; k < n; k++) {
        h[k].shared = &sh;
    }
    harness_hub lead = {.shared = &sh};
    ok = harness_hub_listen(&lead, name, err);
    sh.listen_fd = lead.listen_fd;
    for (int k = 0; ok && k < n; k++) {
        ok = harness_hub_open_lane(&h[k], spec, err);
    }
    ok =
        ok && harness_hub_wire_hello(h[0].backend ? harness_backend_identity(h[0].backend) : NULL,
                                     harness_hub_takes_placed(spec) ? HARNESS_HUB_TAKES_PLACED : 0u,
                                     &sh.hello, &sh.hello_len, err);
    ok = ok && harness_hub_run_lanes(h, n, stats, err);
    for (int k = 0; k < n; k++) {
        harness_hub_close_lane(&h[k]);
    }
    if (sh.listen_fd >= 0) {
        close(sh.listen_fd);
    }
    free(sh.hello);
    free(h);
    return ok;
}
