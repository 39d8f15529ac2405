/* harness_pybatch: a batch of calls for a Python worker (harness_pyworker.h),
 * built argument by argument: the descriptors in one payload, the tensors'
 * bytes in a block shared with the worker; its layout is shown to the
 * worker's side, which reads the answers back into it. Private to harness/. */
#ifndef HARNESS_PYBATCH_H
#define HARNESS_PYBATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"

typedef enum {
    HARNESS_PYARG_NONE = 0,
    HARNESS_PYARG_INT = 1,
    HARNESS_PYARG_STR = 2,
    HARNESS_PYARG_IN = 3,   /* an input tensor on the worker's device */
    HARNESS_PYARG_OUT = 4,  /* an output tensor: prior contents sent, read back */
    HARNESS_PYARG_HOST = 5, /* an input tensor kept on the CPU */
} harness_pyarg_kind;

typedef struct harness_pybatch harness_pybatch;

bool harness_pybatch_new(harness_pybatch **out, gm_error *err);
void harness_pybatch_free(harness_pybatch *b);
void harness_pybatch_clear(harness_pybatch *b);
size_t harness_pybatch_count(const harness_pybatch *b);

/* Starts a call; the arguments that follow belong to it. */
void harness_pybatch_begin(harness_pybatch *b);
void harness_pybatch_int(harness_pybatch *b, const char *name, int64_t v);
void harness_pybatch_str(harness_pybatch *b, const char *name, const char *s);
void harness_pybatch_none(harness_pybatch *b, const char *name);
/* A tensor of rank 1 or 2 (dims[1] ignored for rank 1) of 4- or 8-byte
 * integers at `data`; for HARNESS_PYARG_OUT the answer is written back there. */
void harness_pybatch_tensor(harness_pybatch *b, const char *name, harness_pyarg_kind kind,
                            int elem_size, int rank, const size_t dims[2], void *data);
/* False when memory ran out while building (the batch is then unusable). */
bool harness_pybatch_ok(const harness_pybatch *b);

/* Whether call k (of a batch the worker answered) changed one of its IN
 * tensors in the block: the worker leaves what its target's input tensors
 * hold there (docs/TARGETS.md, "Inputs are read-only"); `what` says where. */
bool harness_pybatch_inputs_changed(const harness_pybatch *b, size_t k, char *what, size_t size);

/* The layout (harness_pybatch.c builds it, harness_pyworker.c sends it). */

typedef struct {
    void *data;    /* where an OUT tensor's answer goes */
    size_t bytes;  /* how many bytes it must be */
    size_t offset; /* where the worker leaves it in the block */
} harness_pybatch_out;

/* An IN tensor as it was sent (the case's array) and where it lies in the
 * block, for the check that the target left it alone (harness_inputs.h);
 * `name` is the argument's, which must outlive the batch (a literal). */
typedef struct {
    const char *name;
    const void *data;
    int elem;
    size_t count, cols;
    size_t offset;
} harness_pybatch_in;

/* The tensors' bytes, in a memory block shared with the worker (a memfd it
 * maps: docs/TARGETS.md, "Placed calls"), each at a multiple of
 * HARNESS_PYBATCH_ALIGN: the CALL carries their offsets, not their bytes,
 * and the worker leaves its outputs there. A block that must grow is a new
 * memfd, with an `id` no other block of this process had: the worker is sent
 * a block when its id is not the one the worker last mapped. */
#define HARNESS_PYBATCH_ALIGN 256
typedef struct {
    char *base;
    size_t size, used;
    int fd; /* -1: none yet */
    uint64_t id;
} harness_pybatch_block;

struct harness_pybatch {
    char *bytes; /* the CALL payload */
    size_t len, cap;
    size_t count;   /* calls */
    size_t args_at; /* where the current call's n_args is */
    uint32_t n_args;
    harness_pybatch_out *outs; /* every OUT tensor of every call, in order */
    size_t n_outs, outs_cap;
    size_t *call_first_out; /* call k's OUT tensors: [first[k], first[k+1]) */
    harness_pybatch_in *ins; /* every IN tensor of every call, in order */
    size_t n_ins, ins_cap;
    size_t *call_first_in; /* call k's IN tensors: [first[k], first[k+1]) */
    size_t calls_cap;
    harness_pybatch_block block;
    bool failed;
};

#endif
