/* gm_hub_wire: the target hub's messages as bytes (the layouts are in
 * gm_hub.h). Private to gm_hub.c and gm_hub_client.c. */
#ifndef GM_HUB_WIRE_H
#define GM_HUB_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_backend.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_layout.h"
#include "gm_outputs.h"
#include "gm_pyworker.h"

/* HELLO's flags. */
#define GM_HUB_TAKES_PLACED 1u /* PLACED batches in a shared block (builtin lanes) */

/* HELLO's payload for `identity` (NULL: a builtin target). */
bool gm_hub_wire_hello(const gm_target_record *identity, uint32_t flags, char **out,
                       size_t *len, gm_error *err);

/* Reads HELLO's payload: *has says whether a record came (then `out`
 * holds it, to be freed with gm_target_record_free). */
bool gm_hub_wire_read_hello(const char *p, size_t len, bool *has, gm_target_record *out,
                            uint32_t *flags, gm_error *err);

/* SHARE's payload: the block's size (its descriptor goes along). */
bool gm_hub_wire_read_share(const char *p, size_t len, uint64_t *size);

/* PLACED's payload for n launches laid out in the client's block
 * (malloc'd; NULL when memory runs out). */
char *gm_hub_wire_placed(const gm_layout_launch *launches, size_t n, size_t *len);

/* Calls add(ctx, owner, launch) for each launch of a PLACED payload
 * (unchecked: the caller checks it against the block); false when the
 * payload is malformed or add fails. */
bool gm_hub_wire_each_placed(const char *p, size_t len, void *ctx, int owner,
                             bool (*add)(void *ctx, int owner, const gm_layout_launch *l));

/* The hub's answer for one placed launch: how the call went, and what the
 * target reported ("out_of_bounds: ..."), "" for nothing. The outputs are
 * in the shared block. */
#define GM_HUB_ERROR_MAX 256
typedef struct {
    gm_pycall_result result;
    char error[GM_HUB_ERROR_MAX];
} gm_hub_placed_answer;

/* Sends PLACED_ANSWERS for the launches of `who` among n. */
bool gm_hub_wire_send_placed_answers(int fd, const gm_hub_placed_answer *answers,
                                     const int *owner, size_t n, int who,
                                     gm_backend_restarts caused);

/* Reads PLACED_ANSWERS for n launches. */
bool gm_hub_wire_read_placed_answers(const char *p, size_t len, gm_hub_placed_answer *answers,
                                     size_t n, gm_backend_restarts *caused, gm_error *err);

/* BATCH's payload for n cases (malloc'd; NULL when memory runs out). */
char *gm_hub_wire_batch(const gm_case *const *cases, size_t n, size_t *len);

/* Calls add(ctx, owner, bytes, len) for each case of a BATCH payload;
 * false when the payload is malformed or add fails. */
bool gm_hub_wire_each_case(const char *p, size_t len, void *ctx, int owner,
                           bool (*add)(void *ctx, int owner, const char *bytes, size_t len));

/* Sends ANSWERS for the cases of `who` among n (owner[i] says whose). */
bool gm_hub_wire_send_answers(int fd, const gm_pycall_result *results, const gm_outputs *outs,
                              const int *owner, size_t n, int who, gm_backend_restarts caused);

/* Reads ANSWERS for n cases into results and outs (prepared for them). */
bool gm_hub_wire_read_answers(const char *p, size_t len, gm_pycall_result *results,
                              gm_outputs *const *outs, size_t n, gm_backend_restarts *caused,
                              gm_error *err);

#endif
