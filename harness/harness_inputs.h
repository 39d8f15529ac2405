/* harness_inputs: a launch's input buffers, and whether a target left them
 * as they were sent (docs/TARGETS.md, "Inputs are read-only").
 *
 * A fused kernel must only read req_pool_indices, seq_lens, req_to_token,
 * swa_mapping, out_cache_loc and qlens: in a server they are the batch's
 * state and the KV-cache mapping of every later step, so a write into them
 * (or an out-of-bounds write that lands there) corrupts what comes after
 * while this step's outputs look right. After a call of an external target
 * (lib:, python:, through a hub or not) and of the builtin GPU backends,
 * every input buffer the target could write is compared with the bytes
 * that were sent; a difference is the finding `target_wrote_input`, its
 * error naming the buffer and its first changed element. Private to
 * harness/ (and its tests). */
#ifndef HARNESS_INPUTS_H
#define HARNESS_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fused_params.h"
#include "gm_outputs.h"

#define HARNESS_INPUTS_MAX 6
#define HARNESS_INPUTS_WHAT_MAX 200

/* One input buffer as it was sent: `count` elements of `elem` (4 or 8)
 * bytes at `data`, rows of `cols` elements (1: a vector). */
typedef struct {
    const char *name;
    const void *data;
    int elem;
    size_t count;
    size_t cols;
} harness_inputs_buf;

/* The input buffers of launch `p` (host pointers) that exist, in
 * fused_buf order; how many. */
size_t harness_inputs_of(const fused_params *p, harness_inputs_buf out[HARNESS_INPUTS_MAX]);

/* Whether the bytes at `now` (the buffer's layout) differ from what was
 * sent; when they do, `what` says where: "seq_lens[3]: sent 5, now 7 (2 of
 * 4 elements changed)". */
bool harness_inputs_changed(const harness_inputs_buf *sent, const void *now, char *what,
                            size_t size);

/* Whether an input of launch `sent` (host pointers) differs from the same
 * input of `placed` seen `shift` bytes away (placed's pointer + shift: a
 * copy of the launch's buffers elsewhere, such as a device arena's host
 * mirror or a block's download); `what` says where. */
bool harness_inputs_launch_changed(const fused_params *sent, const fused_params *placed,
                                   uintptr_t shift, char *what, size_t size);

/* `what` as the error of a target that wrote its inputs, into `error`
 * ("target_wrote_input: WHAT"). */
void harness_inputs_format(char *error, size_t size, const char *what);

/* Marks `out` as a target that wrote its inputs ("target_wrote_input:
 * WHAT"), whatever it returned. */
void harness_inputs_report(gm_outputs *out, const char *what);

/* Whether `error` (a fused error) is such a report. */
bool harness_inputs_is_report(const char *error);

#endif
