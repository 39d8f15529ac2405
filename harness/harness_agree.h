/* harness_agree: the fused kernel on several backends must give the same
 * buffers, bit for bit. Where the first backend (normally cpu) reports an
 * out-of-bounds access, the others must report one too (their buffers are
 * then not compared: the access was skipped at different points). */
#ifndef HARNESS_AGREE_H
#define HARNESS_AGREE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness_backend.h"
#include "gm_case.h"
#include "gm_error.h"

typedef struct {
    bool agreed;
    bool out_of_bounds; /* the first backend reported an out-of-bounds access */
    char message[512];  /* the first disagreement; empty when agreed */
} harness_agree_outcome;

/* False only when a backend failed to run (err set). */
bool harness_agree_case(harness_backend *const *backends, size_t n, const gm_case *c,
                   harness_agree_outcome *out, gm_error *err);

#endif
