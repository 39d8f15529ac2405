/* harness_layout: the buffers of one launch laid out in one block of memory,
 * each at an aligned offset, inputs first, then the outputs, then a slot
 * for the checked kernel's status record. Pure host code, private to
 * harness/.
 *
 * One layout serves two blocks: a CUDA backend's pinned mirror of its
 * device arena (harness_cuda_arena.c: the block goes up in one copy and the
 * outputs come back in one), and the memory a job shares with its target
 * hub (harness_hub.c: the job lays its cases out there, the hub runs them in
 * place or copies the block straight to the device, no socket bytes, no
 * decoding). The layout depends only on the buffers' sizes, so the same
 * shapes land at the same offsets (a captured CUDA graph stays valid).
 */
#ifndef HARNESS_LAYOUT_H
#define HARNESS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fused_params.h"

#define HARNESS_LAYOUT_ALIGN ((size_t)256)
#define HARNESS_LAYOUT_STATUS_BYTES ((size_t)256) /* >= sizeof(fused_cuda_status) */

/* Where one laid-out launch lies, in bytes from the block's start. */
typedef struct {
    size_t begin;      /* its first buffer */
    size_t outputs_at; /* its first output buffer: what comes back from here on */
    size_t status_at;  /* the status slot */
    size_t end;        /* past the status slot */
} harness_layout_span;

/* One launch laid out in a block: its arguments, pointers as offsets. */
typedef struct {
    fused_params params;
    harness_layout_span span;
} harness_layout_launch;

/* `bytes` rounded up to the alignment. */
size_t harness_layout_round(size_t bytes);

/* The bytes that the buffers of `host` and the status slot need. */
size_t harness_layout_need(const fused_params *host);

/* Copies every buffer of `host` (inputs and the prior contents of the
 * outputs) into `block` from offset `at` on, zeroes the status slot, and
 * gives `placed`: the same launch with each pointer `addr` + its offset
 * (addr: where whoever runs the launch sees the block; 0 gives plain
 * offsets, then `at` must be > 0 so that no offset reads as NULL). NULL
 * buffers stay NULL. */
void harness_layout_place(const fused_params *host, unsigned char *block, size_t at, uintptr_t addr,
                          fused_params *placed, harness_layout_span *span);

/* Copies the outputs of a launch placed with `addr` back from `block`
 * into the buffers of `host` (the launch it was placed from). */
void harness_layout_unpack(const fused_params *host, const fused_params *placed, uintptr_t addr,
                           const unsigned char *block);

/* Whether `placed` (pointers as offsets, from an untrusted peer) lies
 * inside `span` and `span` inside a block of `size` bytes: every buffer
 * as long as its sizes say, the inputs before span->outputs_at and the
 * outputs after it. On false, *why names the first buffer that does not. */
bool harness_layout_check(const fused_params *placed, const harness_layout_span *span, size_t size,
                          const char **why);

/* `placed` with offsets turned into pointers into the block at `base`. */
void harness_layout_rebase(fused_params *placed, uintptr_t base);

#endif
