#include "harness_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* A payload larger than any case the readers accept is a broken stream. */
#define HARNESS_WIRE_MAX_PAYLOAD ((uint64_t)1 << 34)

typedef struct {
    uint32_t type;
    uint32_t reserved;
    uint64_t len;
} harness_wire_header;

static bool harness_wire_send_all(int fd, const void *data, size_t len) {
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

static bool harness_wire_receive_all(int fd, void *data, size_t len) {
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

/* The descriptor rides on the header's bytes (sent whole in one sendmsg:
 * a stream socket delivers ancillary data with the first byte it carries). */
static bool harness_wire_send_header(int fd, const harness_wire_header *h, int pass) {
    if (pass < 0) {
        return harness_wire_send_all(fd, h, sizeof *h);
    }
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)h, sizeof *h};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                       .msg_controllen = sizeof control.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &pass, sizeof pass);
    ssize_t n;
    do {
        n = sendmsg(fd, &m, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof *h ||
           (n > 0 && harness_wire_send_all(fd, (const char *)h + n, sizeof *h - (size_t)n));
}

/* Reads the header, picking up a descriptor that came with it. */
static bool harness_wire_receive_header(int fd, harness_wire_header *h, int *passed) {
    *passed = -1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {h, sizeof *h};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                       .msg_controllen = sizeof control.buf};
    ssize_t n;
    do {
        n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        return false;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
            c->cmsg_len == CMSG_LEN(sizeof(int))) {
            memcpy(passed, CMSG_DATA(c), sizeof *passed);
        }
    }
    return (size_t)n == sizeof *h ||
           harness_wire_receive_all(fd, (char *)h + n, sizeof *h - (size_t)n);
}

bool harness_wire_send_fd(int fd, harness_wire_type type, const void *payload, size_t len,
                          int pass) {
    harness_wire_header h = {(uint32_t)type, 0, (uint64_t)len};
    return harness_wire_send_header(fd, &h, pass) &&
           (len == 0 || harness_wire_send_all(fd, payload, len));
}

bool harness_wire_send(int fd, harness_wire_type type, const void *payload, size_t len) {
    return harness_wire_send_fd(fd, type, payload, len, -1);
}

bool harness_wire_receive(int fd, harness_wire_type *type, char **payload, size_t *len) {
    int passed = -1;
    bool ok = harness_wire_receive_fd(fd, type, payload, len, &passed);
    if (passed >= 0) {
        close(passed);
    }
    return ok;
}

bool harness_wire_receive_fd(int fd, harness_wire_type *type, char **payload, size_t *len,
                             int *passed) {
    harness_wire_header h;
    *payload = NULL;
    if (!harness_wire_receive_header(fd, &h, passed) || h.len > HARNESS_WIRE_MAX_PAYLOAD) {
        if (*passed >= 0) {
            close(*passed);
            *passed = -1;
        }
        return false;
    }
    char *p = malloc((size_t)h.len + 1);
    if (p == NULL || !harness_wire_receive_all(fd, p, (size_t)h.len)) {
        free(p);
        if (*passed >= 0) {
            close(*passed);
            *passed = -1;
        }
        return false;
    }
    p[h.len] = '\0';
    *type = (harness_wire_type)h.type;
    *payload = p;
    *len = (size_t)h.len;
    return true;
}
