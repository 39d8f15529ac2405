/* fuzz_defer: the inputs of a libFuzzer job whose check against an
 * external target waits for a batch (fuzz.h, GMFUZZ_TARGET_BATCH).
 *
 * A Python target answers a batch of cases in about the time it answers
 * one: a GPU synchronization and a round trip each, shared by sixteen
 * processes' contexts. So a job gives each input its whole C side at once
 * (decode, the fused model, the reference, the verdict on the model's
 * buffers: all the coverage libFuzzer sees) and queues the input with its
 * model; the queue goes to the target when it is full or its oldest entry
 * has waited FUZZ_DEFER_MAX_AGE_S, and at the job's end. Only an input
 * whose target did not return the model's buffers exactly, or whose model
 * made a new finding, is judged again, on the target's buffers. */
#ifndef FUZZ_DEFER_H
#define FUZZ_DEFER_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

#define FUZZ_DEFER_MAX_AGE_S 0.5

typedef struct {
    size_t n, cap;
    gm_case *cases;          /* owned */
    const gm_case **ptrs;    /* &cases[k], as the backend takes them */
    gm_outputs *models;      /* owned: each case's fused model */
    const gm_outputs **model_of;
    bool *rejudge;           /* the model's verdict was a new finding */
    double oldest;           /* monotonic seconds when cases[0] was queued */
} fuzz_defer;

/* A queue of `cap` inputs (cap >= 2). */
bool fuzz_defer_init(fuzz_defer *d, size_t cap, gm_error *err);
void fuzz_defer_free(fuzz_defer *d);
/* Takes `c` and `model` (moved: both are left empty) into the queue, which
 * must not be full. */
void fuzz_defer_push(fuzz_defer *d, gm_case *c, gm_outputs *model, bool rejudge);
/* Full, or its oldest input has waited long enough. */
bool fuzz_defer_due(const fuzz_defer *d);
/* Frees the queued cases and models: the queue is empty again. */
void fuzz_defer_clear(fuzz_defer *d);

#endif
