/* harness_target_hub: any target run by the campaign's target hub @NAME
 * (harness_hub.c, harness_hub_client.h; harness_target_ops.h): the hub owns
 * the target and runs it raw for every job; this side keeps the rest. An
 * external target's record is the hub's. */
#include "harness_target_ops.h"

#include <stdlib.h>

#include "harness_hub_client.h"

typedef struct {
    harness_hub_client *client;
    harness_backend_jit jit; /* of this client's cases */
} harness_target_hub;

static harness_target_hub *harness_target_hub_of(const harness_target_impl *t) {
    return (harness_target_hub *)t;
}

static void harness_target_hub_close(harness_target_impl *t) {
    harness_target_hub *h = harness_target_hub_of(t);
    if (h != NULL) {
        harness_hub_client_close(h->client);
        free(h);
    }
}

static bool harness_target_hub_open(const harness_target_spec *spec, harness_target_impl **out,
                                    gm_target_record *seen, bool *has_seen, gm_error *err) {
    harness_target_hub *h = calloc(1, sizeof *h);
    if (h == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory connecting to a target hub");
    }
    if (!harness_hub_client_open(spec->hub, &h->client, err)) {
        free(h);
        return false;
    }
    const gm_target_record *identity = harness_hub_client_identity(h->client);
    *has_seen = identity != NULL;
    if (identity != NULL && !gm_target_record_copy(seen, identity)) {
        harness_target_hub_close((harness_target_impl *)h);
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory recording the hub's target");
    }
    *out = (harness_target_impl *)h;
    return true;
}

static bool harness_target_hub_run(harness_target_impl *t, const gm_case *const *cases,
                                   gm_outputs *const *outs, size_t n, double limit_s,
                                   harness_pycall_result *results, gm_error *err) {
    harness_target_hub *h = harness_target_hub_of(t);
    if (!harness_hub_client_call(h->client, cases, outs, n, limit_s, results, err)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        h->jit.compiles += results[i].compiles;
        h->jit.loads += results[i].loads;
        h->jit.seconds += results[i].jit_s;
    }
    return true;
}

/* Whether the hub's worker sees its target's compiles is not said across
 * the hub: a confirmation through a hub gets the compile limit. */
static harness_target_counts harness_target_hub_counts(const harness_target_impl *t) {
    const harness_target_hub *h = harness_target_hub_of(t);
    return (harness_target_counts){.restarts = harness_hub_client_restarts(h->client),
                                   .jit = h->jit};
}

const harness_target_ops harness_target_hub_ops = {
    .name = "hub",
    .open = harness_target_hub_open,
    .run = harness_target_hub_run,
    .counts = harness_target_hub_counts,
    .close = harness_target_hub_close,
};
