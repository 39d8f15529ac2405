/* gm_hub_wire: the target hub's messages as bytes (the layouts are in
 * gm_hub.h). Private to gm_hub.c and gm_hub_client.c. */
#ifndef GM_HUB_WIRE_H
#define GM_HUB_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_backend.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "gm_pyworker.h"

/* HELLO's payload for `identity` (NULL: a builtin target). */
bool gm_hub_wire_hello(const gm_target_record *identity, char **out, size_t *len, gm_error *err);

/* Reads HELLO's payload: *has says whether a record came (then `out`
 * holds it, to be freed with gm_target_record_free). */
bool gm_hub_wire_read_hello(const char *p, size_t len, bool *has, gm_target_record *out,
                            gm_error *err);

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
