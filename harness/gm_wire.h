/* gm_wire: the messages between the harness and a GPU worker process
 * (gm_worker), over a socket pair. A message is a header (type, payload
 * length) and the payload. Sends never raise SIGPIPE: a dead peer is an
 * error value like any other. */
#ifndef GM_WIRE_H
#define GM_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    GM_WIRE_HELLO = 1,    /* worker -> harness: ready; payload empty */
    GM_WIRE_REFUSED,      /* worker -> harness: cannot start; payload: why */
    GM_WIRE_RUN,          /* harness -> worker: payload: a case (gm_wire_case.h) */
    GM_WIRE_RESULT,       /* worker -> harness: payload: gm_wire_result layout */
    GM_WIRE_DEVICE_ERROR, /* worker -> harness: payload: the error; the worker exits */
    GM_WIRE_STOP,         /* harness -> worker: exit */
    GM_WIRE_BATCH,        /* client -> target hub: cases (gm_hub.h) */
    GM_WIRE_ANSWERS,      /* target hub -> client: one answer per case */
    GM_WIRE_SHARE,        /* client -> target hub: a memory block (its fd passed along) */
    GM_WIRE_PLACED,       /* client -> target hub: cases laid out in the shared block */
    GM_WIRE_PLACED_ANSWERS, /* target hub -> client: one status per placed case */
} gm_wire_type;

/* Sends one message; false when the peer is gone. */
bool gm_wire_send(int fd, gm_wire_type type, const void *payload, size_t len);

/* Sends one message with the file descriptor `pass` along (SCM_RIGHTS). */
bool gm_wire_send_fd(int fd, gm_wire_type type, const void *payload, size_t len, int pass);

/* Receives one message into a malloc'd payload (NUL-terminated for
 * convenience, *len excludes it); false on end of stream or a bad header.
 * A descriptor passed along is closed. */
bool gm_wire_receive(int fd, gm_wire_type *type, char **payload, size_t *len);

/* The same, keeping a descriptor passed along in *passed (-1: none). */
bool gm_wire_receive_fd(int fd, gm_wire_type *type, char **payload, size_t *len, int *passed);

#endif
