#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gm_hub.h"
#include "gm_hub_wire.h"
#include "gm_wire.h"

struct gm_hub_client {
    int fd;
    char name[GM_TARGET_NAME_MAX];
    bool has_identity;
    gm_target_record identity;
    gm_backend_restarts restarts;
};

static bool gm_hub_client_hello(gm_hub_client *c, gm_error *err) {
    gm_wire_type type;
    char *payload = NULL;
    size_t len = 0;
    bool ok = gm_wire_receive(c->fd, &type, &payload, &len) && type == GM_WIRE_HELLO;
    ok = ok ? gm_hub_wire_read_hello(payload, len, &c->has_identity, &c->identity, err)
            : gm_error_set(err, GM_ERR_DEVICE, "target hub @%s closed before its HELLO", c->name);
    free(payload);
    return ok;
}

static void gm_hub_client_disconnect(gm_hub_client *c) {
    if (c->fd >= 0) {
        close(c->fd);
    }
    c->fd = -1;
    gm_target_record_free(&c->identity);
    memset(&c->identity, 0, sizeof c->identity);
}

static bool gm_hub_client_connect(gm_hub_client *c, gm_error *err) {
    struct sockaddr_un a;
    unsigned alen = 0;
    if (!gm_hub_address(c->name, &a, &alen)) {
        return gm_error_set(err, GM_ERR_USAGE, "target hub name '%s': empty or too long",
                            c->name);
    }
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, alen) != 0) {
        gm_error_set(err, GM_ERR_DEVICE, "target hub @%s: %s (is the campaign's hub running?)",
                     c->name, strerror(errno));
        gm_hub_client_disconnect(c);
        return false;
    }
    if (!gm_hub_client_hello(c, err)) {
        gm_hub_client_disconnect(c);
        return false;
    }
    return true;
}

/* A hub that died is started again by the campaign: wait for it a while. */
static bool gm_hub_client_reconnect(gm_hub_client *c, gm_error *err) {
    const struct timespec pause = {0, 50 * 1000 * 1000};
    for (int k = 0; k < GM_HUB_RECONNECT_S * 20; k++) {
        if (gm_hub_client_connect(c, err)) {
            return true;
        }
        nanosleep(&pause, NULL);
    }
    return false;
}

bool gm_hub_client_open(const char *name, gm_hub_client **out, gm_error *err) {
    *out = NULL;
    gm_hub_client *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory connecting to a target hub");
    }
    c->fd = -1;
    snprintf(c->name, sizeof c->name, "%s", name);
    if (!gm_hub_client_connect(c, err)) {
        gm_hub_client_close(c);
        return false;
    }
    *out = c;
    return true;
}

void gm_hub_client_close(gm_hub_client *c) {
    if (c == NULL) {
        return;
    }
    gm_hub_client_disconnect(c);
    free(c);
}

const gm_target_record *gm_hub_client_identity(const gm_hub_client *c) {
    return c->has_identity ? &c->identity : NULL;
}

gm_backend_restarts gm_hub_client_restarts(const gm_hub_client *c) { return c->restarts; }

/* The hub died with the batch: every case of it crashed the target, as
 * far as this client can tell (the caller bisects and saves). */
static void gm_hub_client_lost(gm_hub_client *c, gm_pycall_result *results, size_t n) {
    gm_hub_client_disconnect(c);
    c->restarts.crashed++;
    for (size_t i = 0; i < n; i++) {
        results[i].status = GM_PYCALL_CRASHED;
        snprintf(results[i].message, sizeof results[i].message,
                 "the target hub @%s died during this batch of %zu (it is started again)",
                 c->name, n);
    }
}

bool gm_hub_client_call(gm_hub_client *c, const gm_case *const *cases, gm_outputs *const *outs,
                        size_t n, gm_pycall_result *results, gm_error *err) {
    if (c->fd < 0 && !gm_hub_client_reconnect(c, err)) {
        return false;
    }
    size_t len = 0;
    char *batch = gm_hub_wire_batch(cases, n, &len);
    if (batch == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a batch of %zu cases", n);
    }
    bool sent = gm_wire_send(c->fd, GM_WIRE_BATCH, batch, len);
    free(batch);
    gm_wire_type type = GM_WIRE_STOP;
    char *payload = NULL;
    bool answered = sent && gm_wire_receive(c->fd, &type, &payload, &len) &&
                    type == GM_WIRE_ANSWERS;
    gm_backend_restarts caused = {0};
    bool ok = true;
    if (answered) {
        ok = gm_hub_wire_read_answers(payload, len, results, outs, n, &caused, err);
    } else {
        gm_hub_client_lost(c, results, n);
    }
    free(payload);
    c->restarts.crashed += caused.crashed;
    c->restarts.hung += caused.hung;
    return ok;
}
