/* harness_hub_client: a job's side of the target hub (harness_hub.c): the
 * seam (harness_backend.c) runs a target whose spec names a hub through it.
 * Opening and closing a client are in the contract (harness.h: the campaign
 * waits for its hubs with them); the rest is private to harness/. */
#ifndef HARNESS_HUB_CLIENT_H
#define HARNESS_HUB_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "harness.h"
#include "harness_pyworker.h"

#define HARNESS_HUB_RECONNECT_S 60 /* how long a client waits for a hub started again */

/* The hub's target record; NULL for a builtin target. */
const gm_target_record *harness_hub_client_identity(const harness_hub_client *c);

/* Runs n cases on the hub's target: *outs[i] must hold case i's prior
 * contents (gm_outputs_prepare) and receives what the target wrote when
 * results[i] says RETURNED; `limit_s` > 0 bounds each call instead of the
 * target's timeout (a batch in a shared block has none: builtin lanes are
 * never timed). A hub that dies with the batch makes every
 * case CRASHED (the next call reconnects, waiting up to
 * HARNESS_HUB_RECONNECT_S for the campaign to start it again); false (err
 * set) when it does not come back or its answer is malformed. */
bool harness_hub_client_call(harness_hub_client *c, const gm_case *const *cases,
                             gm_outputs *const *outs, size_t n, double limit_s,
                             harness_pycall_result *results, gm_error *err);

/* The hub's worker restarts that this client's batches caused. */
harness_backend_restarts harness_hub_client_restarts(const harness_hub_client *c);

#endif
