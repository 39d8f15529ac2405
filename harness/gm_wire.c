#include "gm_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

/* A payload larger than any case the readers accept is a broken stream. */
#define GM_WIRE_MAX_PAYLOAD ((uint64_t)1 << 34)

typedef struct {
    uint32_t type;
    uint32_t reserved;
    uint64_t len;
} gm_wire_header;

static bool gm_wire_send_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool gm_wire_receive_all(int fd, void *data, size_t len) {
    char *p = data;
    while (len > 0) {
        ssize_t n = recv(fd, p, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

bool gm_wire_send(int fd, gm_wire_type type, const void *payload, size_t len) {
    gm_wire_header h = {(uint32_t)type, 0, (uint64_t)len};
    return gm_wire_send_all(fd, &h, sizeof h) && (len == 0 || gm_wire_send_all(fd, payload, len));
}

bool gm_wire_receive(int fd, gm_wire_type *type, char **payload, size_t *len) {
    gm_wire_header h;
    *payload = NULL;
    if (!gm_wire_receive_all(fd, &h, sizeof h) || h.len > GM_WIRE_MAX_PAYLOAD) {
        return false;
    }
    char *p = malloc((size_t)h.len + 1);
    if (p == NULL || !gm_wire_receive_all(fd, p, (size_t)h.len)) {
        free(p);
        return false;
    }
    p[h.len] = '\0';
    *type = (gm_wire_type)h.type;
    *payload = p;
    *len = (size_t)h.len;
    return true;
}
