/* harness_hub_wire: the target hub's address and its messages as bytes.
 * Private to harness_hub.c and harness_hub_client.c.
 *
 * The hub (harness_hub.c) listens on a Linux abstract Unix socket ("@NAME").
 * Messages are harness_wire frames (harness_wire.h: type, length, payload);
 * the payloads of all six, in host byte order (both ends are on one
 * machine), are written and read here only:
 *   hub -> client  HELLO    u32 version (HARNESS_HUB_VERSION: a client of
 *                           another refuses the hub), u32 has a record
 *                           (0: a builtin target), u32 flags
 *                           (HARNESS_HUB_TAKES_PLACED: PLACED is served),
 *                           then the target's record as 8 strings (spec,
 *                           kind, module, function, file, sha256, version,
 *                           device), each u32 length or 0xffffffff for
 *                           none, then its bytes
 *   client -> hub  BATCH    u32 n, f64 a call's limit (0: the target's; the
 *                           round takes the largest of its batches'), then
 *                           per case u64 length + harness_wire_case
 *   hub -> client  ANSWERS  the answers' head: u32 n, u32 restarts after a
 *                           crash, u32 after a hang (the workers this round
 *                           replaced); then per case a result: u8
 *                           harness_pycall_status, u32 compiles, u32 loads,
 *                           f64 their seconds (the target's JIT), u32
 *                           length + message; then u64 length +
 *                           harness_wire_case_outputs
 *   client -> hub  SHARE    u64 the block's size, with its memfd passed
 *                           along (SCM_RIGHTS): the memory both map, which
 *                           replaces the block this client shared before
 *   client -> hub  PLACED   u32 n, then per launch 28 u64: its span in the
 *                           block (begin, outputs at, status at, end), the
 *                           twelve buffers' offsets in fused_buf order (0:
 *                           absent), the twelve scalars of fused_params
 *                           (q_mode last); the inputs are in the block
 *   hub -> client  PLACED_ANSWERS  the answers' head as ANSWERS, then per
 *                           launch a result as ANSWERS' and u32 length +
 *                           what the target reported ("" for nothing); the
 *                           outputs are in the block, at the span's
 * The hub drops a client that sends another type or a malformed payload;
 * a client that gets another type than the answer it waits for takes its
 * hub for lost.
 */
#ifndef HARNESS_HUB_WIRE_H
#define HARNESS_HUB_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "harness.h"
#include "harness_layout.h"
#include "harness_pyworker.h"

#define HARNESS_HUB_VERSION 3u

/* The abstract socket address of @name; false when the name is too long. */
bool harness_hub_wire_address(const char *name, void *sockaddr_un, unsigned *len);

/* HELLO's flags. */
#define HARNESS_HUB_TAKES_PLACED 1u /* PLACED batches in a shared block (builtin lanes) */

/* HELLO's payload for `identity` (NULL: a builtin target). */
bool harness_hub_wire_hello(const gm_target_record *identity, uint32_t flags, char **out,
                            size_t *len, gm_error *err);

/* Reads HELLO's payload: *has says whether a record came (then `out`
 * holds it, to be freed with gm_target_record_free). */
bool harness_hub_wire_read_hello(const char *p, size_t len, bool *has, gm_target_record *out,
                                 uint32_t *flags, gm_error *err);

/* SHARE's payload: the block's size (its descriptor goes along). */
bool harness_hub_wire_read_share(const char *p, size_t len, uint64_t *size);

/* PLACED's payload for n launches laid out in the client's block
 * (malloc'd; NULL when memory runs out). */
char *harness_hub_wire_placed(const harness_layout_launch *launches, size_t n, size_t *len);

/* Calls add(ctx, owner, launch) for each launch of a PLACED payload
 * (unchecked: the caller checks it against the block); false when the
 * payload is malformed or add fails. */
bool harness_hub_wire_each_placed(const char *p, size_t len, void *ctx, int owner,
                                  bool (*add)(void *ctx, int owner,
                                              const harness_layout_launch *l));

/* The hub's answer for one placed launch: how the call went, and what the
 * target reported ("out_of_bounds: ..."), "" for nothing. The outputs are
 * in the shared block. */
#define HARNESS_HUB_ERROR_MAX 256
typedef struct {
    harness_pycall_result result;
    char error[HARNESS_HUB_ERROR_MAX];
} harness_hub_placed_answer;

/* Sends PLACED_ANSWERS for the launches of `who` among n. */
bool harness_hub_wire_send_placed_answers(int fd, const harness_hub_placed_answer *answers,
                                          const int *owner, size_t n, int who,
                                          harness_backend_restarts caused);

/* Reads PLACED_ANSWERS for n launches. */
bool harness_hub_wire_read_placed_answers(const char *p, size_t len,
                                          harness_hub_placed_answer *answers, size_t n,
                                          harness_backend_restarts *caused, gm_error *err);

/* BATCH's payload for n cases (malloc'd; NULL when memory runs out);
 * `limit_s` > 0 bounds each call of theirs instead of the target's timeout
 * (a confirmation's re-run). */
char *harness_hub_wire_batch(const gm_case *const *cases, size_t n, double limit_s, size_t *len);

/* Calls add(ctx, owner, bytes, len) for each case of a BATCH payload and
 * sets *limit_s; false when the payload is malformed or add fails. */
bool harness_hub_wire_each_case(const char *p, size_t len, void *ctx, int owner, double *limit_s,
                                bool (*add)(void *ctx, int owner, const char *bytes, size_t len));

/* Sends ANSWERS for the cases of `who` among n (owner[i] says whose). */
bool harness_hub_wire_send_answers(int fd, const harness_pycall_result *results,
                                   const gm_outputs *outs, const int *owner, size_t n, int who,
                                   harness_backend_restarts caused);

/* Reads ANSWERS for n cases into results and outs (prepared for them). */
bool harness_hub_wire_read_answers(const char *p, size_t len, harness_pycall_result *results,
                                   gm_outputs *const *outs, size_t n,
                                   harness_backend_restarts *caused, gm_error *err);

#endif
