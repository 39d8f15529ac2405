/* harness_wire: the messages between the harness and a GPU worker process
 * (harness_worker), over a socket pair. A message is a header (type, payload
 * length) and the payload. Sends never raise SIGPIPE: a dead peer is an
 * error value like any other. */
#ifndef HARNESS_WIRE_H
#define HARNESS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    HARNESS_WIRE_HELLO = 1,      /* worker -> harness: ready; payload empty */
    HARNESS_WIRE_REFUSED,        /* worker -> harness: cannot start; payload: why */
    HARNESS_WIRE_RUN,            /* harness -> worker: payload: a case (harness_wire_case.h) */
    HARNESS_WIRE_RESULT,         /* worker -> harness: payload: harness_wire_case_outputs layout */
    HARNESS_WIRE_DEVICE_ERROR,   /* worker -> harness: payload: the error; the worker exits */
    HARNESS_WIRE_STOP,           /* harness -> worker: exit */
    HARNESS_WIRE_BATCH,          /* client -> target hub: cases (harness_hub.c) */
    HARNESS_WIRE_ANSWERS,        /* target hub -> client: one answer per case */
    HARNESS_WIRE_SHARE,          /* client -> target hub: a memory block (its fd passed along) */
    HARNESS_WIRE_PLACED,         /* client -> target hub: cases laid out in the shared block */
    HARNESS_WIRE_PLACED_ANSWERS, /* target hub -> client: one status per placed case */
} harness_wire_type;

/* Sends one message; false when the peer is gone. */
bool harness_wire_send(int fd, harness_wire_type type, const void *payload, size_t len);

/* Sends one message with the file descriptor `pass` along (SCM_RIGHTS). */
bool harness_wire_send_fd(int fd, harness_wire_type type, const void *payload, size_t len,
                          int pass);

/* Receives one message into a malloc'd payload (NUL-terminated for
 * convenience, *len excludes it); false on end of stream or a bad header.
 * A descriptor passed along is closed. */
bool harness_wire_receive(int fd, harness_wire_type *type, char **payload, size_t *len);

/* The same, keeping a descriptor passed along in *passed (-1: none). */
bool harness_wire_receive_fd(int fd, harness_wire_type *type, char **payload, size_t *len,
                             int *passed);

#endif
