#define _GNU_SOURCE /* memfd_create */
#include "harness_hub_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "harness_hub_wire.h"
#include "harness_launch.h"
#include "harness_layout.h"
#include "harness_wire.h"

/* The block this client shares with its hub (a memfd, mapped on both
 * sides): its cases are laid out there, and the hub writes the outputs
 * back in place. */
typedef struct {
    unsigned char *base;
    size_t size;
} harness_hub_client_block;

struct harness_hub_client {
    int fd;
    char name[HARNESS_TARGET_NAME_MAX];
    bool has_identity;
    gm_target_record identity;
    harness_backend_restarts restarts;
    bool takes_placed; /* the hub said so in its HELLO */
    bool shared;       /* the hub has this connection's block */
    int block_fd;      /* the block's memfd, sent again to a hub started again */
    harness_hub_client_block block;
};

static bool harness_hub_client_hello(harness_hub_client *c, gm_error *err) {
    harness_wire_type type;
    char *payload = NULL;
    size_t len = 0;
    bool ok = harness_wire_receive(c->fd, &type, &payload, &len) && type == HARNESS_WIRE_HELLO;
    uint32_t flags = 0;
    ok = ok ? harness_hub_wire_read_hello(payload, len, &c->has_identity, &c->identity, &flags, err)
            : gm_error_set(err, GM_ERR_DEVICE, "target hub @%s closed before its HELLO", c->name);
    free(payload);
    c->takes_placed =
        ok && (flags & HARNESS_HUB_TAKES_PLACED) != 0 && getenv("GMFUZZ_HUB_NO_SHARE") == NULL;
    return ok;
}

static void harness_hub_client_unmap(harness_hub_client *c) {
    if (c->block.base != NULL) {
        munmap(c->block.base, c->block.size);
        close(c->block_fd);
    }
    c->block = (harness_hub_client_block){NULL, 0};
    c->block_fd = -1;
}

static void harness_hub_client_disconnect(harness_hub_client *c) {
    if (c->fd >= 0) {
        close(c->fd);
    }
    c->fd = -1;
    c->shared = false; /* a new connection gets the block again */
    gm_target_record_free(&c->identity);
    memset(&c->identity, 0, sizeof c->identity);
}

static bool harness_hub_client_connect(harness_hub_client *c, gm_error *err) {
    struct sockaddr_un a;
    unsigned alen = 0;
    if (!harness_hub_wire_address(c->name, &a, &alen)) {
        return gm_error_set(err, GM_ERR_USAGE, "target hub name '%s': empty or too long",
                            c->name);
    }
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, alen) != 0) {
        gm_error_set(err, GM_ERR_DEVICE, "target hub @%s: %s (is the campaign's hub running?)",
                     c->name, strerror(errno));
        harness_hub_client_disconnect(c);
        return false;
    }
    if (!harness_hub_client_hello(c, err)) {
        harness_hub_client_disconnect(c);
        return false;
    }
    return true;
}

/* A hub that died is started again by the campaign: wait for it a while. */
static bool harness_hub_client_reconnect(harness_hub_client *c, gm_error *err) {
    const struct timespec pause = {0, 50 * 1000 * 1000};
    for (int k = 0; k < HARNESS_HUB_RECONNECT_S * 20; k++) {
        if (harness_hub_client_connect(c, err)) {
            return true;
        }
        nanosleep(&pause, NULL);
    }
    return false;
}

bool harness_hub_client_open(const char *name, harness_hub_client **out, gm_error *err) {
    *out = NULL;
    harness_hub_client *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory connecting to a target hub");
    }
    c->fd = -1;
    c->block_fd = -1;
    snprintf(c->name, sizeof c->name, "%s", name);
    if (!harness_hub_client_connect(c, err)) {
        harness_hub_client_close(c);
        return false;
    }
    *out = c;
    return true;
}

void harness_hub_client_close(harness_hub_client *c) {
    if (c == NULL) {
        return;
    }
    harness_hub_client_disconnect(c);
    harness_hub_client_unmap(c);
    free(c);
}

const gm_target_record *harness_hub_client_identity(const harness_hub_client *c) {
    return c->has_identity ? &c->identity : NULL;
}

harness_backend_restarts harness_hub_client_restarts(const harness_hub_client *c) {
    return c->restarts;
}

/* The hub died with the batch: every case of it crashed the target, as
 * far as this client can tell (the caller bisects and saves). */
static void harness_hub_client_lost(harness_hub_client *c, harness_pycall_result *results,
                                    size_t n) {
    harness_hub_client_disconnect(c);
    c->restarts.crashed++;
    for (size_t i = 0; i < n; i++) {
        results[i] = (harness_pycall_result){.status = HARNESS_PYCALL_CRASHED};
        snprintf(results[i].message, sizeof results[i].message,
                 "the target hub @%s died during this batch of %zu (it is started again)",
                 c->name, n);
    }
}

/* The smallest block: room for the largest fuzzer inputs from the start,
 * because each new block is pinned by the hub (milliseconds, and the old
 * one's unpinning waits for the device). */
#define HARNESS_HUB_BLOCK_MIN ((size_t)32 << 20)

/* A block of at least `need` bytes, shared with the hub (a fresh memfd
 * when it must grow: the hub maps the new one and forgets the old). */
static bool harness_hub_client_share(harness_hub_client *c, size_t need, gm_error *err) {
    if (c->block.base == NULL || c->block.size < need) {
        size_t size = need * 2 > HARNESS_HUB_BLOCK_MIN ? need * 2 : HARNESS_HUB_BLOCK_MIN;
        int fd = memfd_create("gmfuzz-hub-block", MFD_CLOEXEC);
        void *base = fd >= 0 && ftruncate(fd, (off_t)size) == 0
                         ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                         : MAP_FAILED;
        if (base == MAP_FAILED) {
            int saved = errno;
            if (fd >= 0) {
                close(fd);
            }
            return gm_error_set(err, GM_ERR_MEMORY, "a block of %zu bytes shared with hub @%s: %s",
                                size, c->name, strerror(saved));
        }
        harness_hub_client_unmap(c);
        c->block = (harness_hub_client_block){base, size};
        c->block_fd = fd;
        c->shared = false;
    }
    if (!c->shared) {
        uint64_t size = c->block.size;
        c->shared =
            harness_wire_send_fd(c->fd, HARNESS_WIRE_SHARE, &size, sizeof size, c->block_fd);
    }
    return true;
}

/* Reads the hub's PLACED_ANSWERS into results and, for the launches that
 * returned, the outputs from the block into outs. */
static bool harness_hub_client_take_answers(harness_hub_client *c, const fused_params *host,
                                            const harness_layout_launch *launches,
                                            gm_outputs *const *outs, size_t n,
                                            harness_pycall_result *results, gm_error *err) {
    harness_hub_placed_answer *answers = malloc((n ? n : 1) * sizeof *answers);
    harness_wire_type type = HARNESS_WIRE_STOP;
    char *payload = NULL;
    size_t len = 0;
    if (answers == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %zu answers", n);
    }
    bool answered =
        harness_wire_receive(c->fd, &type, &payload, &len) && type == HARNESS_WIRE_PLACED_ANSWERS;
    harness_backend_restarts caused = {0};
    bool ok = true;
    if (answered) {
        ok = harness_hub_wire_read_placed_answers(payload, len, answers, n, &caused, err);
        for (size_t i = 0; ok && i < n; i++) {
            results[i] = answers[i].result;
            if (results[i].status == HARNESS_PYCALL_RETURNED) {
                harness_layout_unpack(&host[i], &launches[i].params, 0, c->block.base);
            }
            if (answers[i].error[0] != '\0') {
                gm_outputs_set_error(outs[i], "%s", answers[i].error);
            }
        }
    } else {
        harness_hub_client_lost(c, results, n);
    }
    c->restarts.crashed += caused.crashed;
    c->restarts.hung += caused.hung;
    free(payload);
    free(answers);
    return ok;
}

/* The cases laid out in the shared block, one PLACED message, the outputs
 * read back in place: no case crosses the socket. */
static bool harness_hub_client_call_placed(harness_hub_client *c, const gm_case *const *cases,
                                           gm_outputs *const *outs, size_t n,
                                           harness_pycall_result *results, gm_error *err) {
    fused_params *host = malloc((n ? n : 1) * sizeof *host);
    harness_layout_launch *launches = malloc((n ? n : 1) * sizeof *launches);
    bool ok = host != NULL && launches != NULL;
    size_t need = HARNESS_LAYOUT_ALIGN; /* no launch at offset 0: it reads as "absent" */
    for (size_t i = 0; ok && i < n; i++) {
        harness_launch_params(cases[i], outs[i], &host[i]);
        need += harness_layout_need(&host[i]);
    }
    ok = ok ? harness_hub_client_share(c, need, err)
            : gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    char *message = NULL;
    size_t len = 0;
    if (ok) {
        for (size_t i = 0, at = HARNESS_LAYOUT_ALIGN; i < n; at = launches[i++].span.end) {
            harness_layout_place(&host[i], c->block.base, at, 0, &launches[i].params,
                                 &launches[i].span);
        }
        message = harness_hub_wire_placed(launches, n, &len);
        ok = message != NULL ||
             gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    if (ok && c->shared && harness_wire_send(c->fd, HARNESS_WIRE_PLACED, message, len)) {
        ok = harness_hub_client_take_answers(c, host, launches, outs, n, results, err);
    } else if (ok) {
        harness_hub_client_lost(c, results, n);
    }
    free(message);
    free(host);
    free(launches);
    return ok;
}

bool harness_hub_client_call(harness_hub_client *c, const gm_case *const *cases,
                             gm_outputs *const *outs, size_t n, double limit_s,
                             harness_pycall_result *results, gm_error *err) {
    if (c->fd < 0 && !harness_hub_client_reconnect(c, err)) {
        return false;
    }
    if (c->takes_placed) {
        return harness_hub_client_call_placed(c, cases, outs, n, results, err);
    }
    size_t len = 0;
    char *batch = harness_hub_wire_batch(cases, n, limit_s, &len);
    if (batch == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    bool sent = harness_wire_send(c->fd, HARNESS_WIRE_BATCH, batch, len);
    free(batch);
    harness_wire_type type = HARNESS_WIRE_STOP;
    char *payload = NULL;
    bool answered =
        sent && harness_wire_receive(c->fd, &type, &payload, &len) && type == HARNESS_WIRE_ANSWERS;
    harness_backend_restarts caused = {0};
    bool ok = true;
    if (answered) {
        ok = harness_hub_wire_read_answers(payload, len, results, outs, n, &caused, err);
    } else {
        harness_hub_client_lost(c, results, n);
    }
    free(payload);
    c->restarts.crashed += caused.crashed;
    c->restarts.hung += caused.hung;
    return ok;
}
