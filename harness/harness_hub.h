/* harness_hub: one process that runs a target for every job of a campaign
 * (docs/TARGETS.md, "The target hub").
 *
 * Why: a GPU serves the synchronizations of ONE process quickly (54,000
 * launch+sync round trips a second on the H200) but time-slices between
 * processes that each hold a CUDA context (16 processes: 11,000 in all,
 * 700 each). So a campaign of N jobs on a GPU target starts a few hubs;
 * each hub owns the target (its worker, its context) and serves its jobs:
 * it collects the cases every job has sent, runs them as one batch (one
 * round trip to a Python worker), and answers each job. The jobs keep
 * everything else (the reference, the screen by the fused model, the
 * oracle), so the hub does only what needs the GPU.
 *
 * A hub listens on a Linux abstract Unix socket ("@NAME": no file, no path
 * length limit, gone with the process). Messages are harness_wire frames:
 *   hub -> client  HELLO    u32 version, then the target's record (8
 *                           strings, each u32 length or 0xffffffff for
 *                           none, then its bytes); no record: builtin
 *   client -> hub  BATCH    u32 n, then per case u64 length + harness_wire_case
 *   hub -> client  ANSWERS  u32 n, u32 restarts after a crash, u32 after a
 *                           hang (the workers this batch replaced), then per
 *                           case u8 harness_pycall_status, u32 length + message,
 *                           u64 length + harness_wire_case_outputs
 * The hub runs the target raw: no screen, no deviation check, no saving;
 * the client does those, as it does for a worker of its own.
 */
#ifndef HARNESS_HUB_H
#define HARNESS_HUB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness_backend.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "harness_pyworker.h"

#define HARNESS_HUB_VERSION 2u
#define HARNESS_HUB_LANES_MAX 64
#define HARNESS_HUB_LANES_DEFAULT 8 /* builtin targets */
#define HARNESS_HUB_SLOW_ROUND_S 1e-3 /* a round this long on the target counts as slow */
#define HARNESS_HUB_RECONNECT_S 60 /* how long a client waits for a hub started again */

/* Where a hub's time went (its log says it at the end). */
typedef struct {
    uint64_t rounds, cases;
    double read_s;      /* receiving and decoding the batches */
    double target_s;    /* the target running them */
    double answer_s;    /* encoding and sending the answers */
    double max_round_s; /* the slowest round on the target */
    uint64_t max_round_cases;
    uint64_t slow_rounds; /* rounds of HARNESS_HUB_SLOW_ROUND_S or more on the target */
    double slow_s;        /* and their time */
    uint64_t blocks, pinned; /* clients' shared blocks mapped, and how many of them pinned */
    double enqueue_s, sync_s, pin_s; /* CUDA, shared blocks: enqueueing, waiting, pinning */
    uint64_t grows;                  /* device allocations for them */
    uint64_t max_case_bytes; /* the largest case received, encoded */
    uint64_t case_bytes;     /* all cases received, encoded */
} harness_hub_stats;

/* Serves `spec` (its hub field empty) on @name until *stop is set (a
 * signal handler sets it) or the process `parent` is gone; false when the
 * target or the socket cannot be opened. A builtin target runs in `lanes`
 * threads of this process (each with clients of its own; on CUDA one
 * stream each in one context, so that the GPU never time-slices between
 * them), an external target in one. Prints nothing; *stats (when not
 * NULL) says where the time went. */
bool harness_hub_serve(const harness_target_spec *spec, const char *name, int lanes,
                  volatile sig_atomic_t *stop, pid_t parent, harness_hub_stats *stats,
                  gm_error *err);

typedef struct harness_hub_client harness_hub_client;

/* Connects to the hub @name and reads its HELLO. */
bool harness_hub_client_open(const char *name, harness_hub_client **out, gm_error *err);
void harness_hub_client_close(harness_hub_client *c);

/* The hub's target record; NULL for a builtin target. */
const gm_target_record *harness_hub_client_identity(const harness_hub_client *c);

/* Runs n cases on the hub's target: *outs[i] must hold case i's prior
 * contents (gm_outputs_prepare) and receives what the target wrote when
 * results[i] says RETURNED. A hub that dies with the batch makes every
 * case CRASHED (the next call reconnects, waiting up to
 * HARNESS_HUB_RECONNECT_S for the campaign to start it again); false (err set)
 * when it does not come back or its answer is malformed. */
bool harness_hub_client_call(harness_hub_client *c, const gm_case *const *cases, gm_outputs *const *outs,
                        size_t n, harness_pycall_result *results, gm_error *err);

/* The hub's worker restarts that this client's batches caused. */
harness_backend_restarts harness_hub_client_restarts(const harness_hub_client *c);

/* The abstract socket address of @name; false when the name is too long. */
bool harness_hub_address(const char *name, void *sockaddr_un, unsigned *len);

#endif
