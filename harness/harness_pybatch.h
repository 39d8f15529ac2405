/* Private to harness/: the layout of a batch (harness_pyworker.h), which the
 * worker's side reads back into. */
#ifndef HARNESS_PYBATCH_H
#define HARNESS_PYBATCH_H

#include "harness_pyworker.h"

typedef struct {
    void *data;   /* where an OUT tensor's answer goes */
    size_t bytes; /* how many bytes it must be */
} harness_pybatch_out;

struct harness_pybatch {
    char *bytes; /* the CALL payload */
    size_t len, cap;
    size_t count;          /* calls */
    size_t args_at;        /* where the current call's n_args is */
    uint32_t n_args;
    harness_pybatch_out *outs;  /* every OUT tensor of every call, in order */
    size_t n_outs, outs_cap;
    size_t *call_first_out; /* call k's OUT tensors: [first[k], first[k+1]) */
    size_t calls_cap;
    bool failed;
};

#endif
