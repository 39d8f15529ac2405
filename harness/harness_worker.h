/* harness_worker: a GPU backend in a child process.
 *
 * A device fault (an illegal address after a real out-of-bounds access, a
 * sticky error) leaves a CUDA context unusable until its process exits, and
 * a crash takes the process with it. So the harness never touches CUDA
 * itself: each GPU backend is a worker process that owns the context, and
 * the harness sends it cases over a socket. When the worker reports a
 * device error or dies, the call says so and the next one starts a fresh
 * worker (a fresh context); the seam saves the case first and reports the
 * error. Private to harness/ (harness_target_worker.c uses it). */
#ifndef HARNESS_WORKER_H
#define HARNESS_WORKER_H

#include <stdbool.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"
#include "harness_backend_cuda.h"

typedef struct harness_worker harness_worker;

/* Forks a worker for `mode`; fails with GM_ERR_DEVICE and the worker's own
 * reason when it cannot open the GPU. The calling process must not have
 * initialised CUDA (a forked child cannot use its parent's context). */
bool harness_worker_start(harness_cuda_mode mode, harness_worker **out, gm_error *err);
void harness_worker_stop(harness_worker *w);

/* How many times the worker was replaced after a failure, and of those how
 * many times it did not answer in time (lib: targets). */
unsigned harness_worker_restarts(const harness_worker *w);
unsigned harness_worker_hangs(const harness_worker *w);

/* A lib: target (harness_libtarget.h) in a worker: the library is loaded in the
 * child, never in gmfuzz's own process. `timeout_s` bounds one call. */
bool harness_worker_start_lib(const char *path, double timeout_s, harness_worker **out,
                              gm_error *err);

typedef enum {
    HARNESS_WORKER_OK,
    HARNESS_WORKER_DEVICE_ERROR, /* the worker reported a CUDA error and exited */
    HARNESS_WORKER_DIED,         /* a segfault, an abort: the socket closed */
    HARNESS_WORKER_HUNG,         /* no answer within the timeout: killed */
} harness_worker_status;

/* One case, with no saving and no restart of its own: a failed worker is
 * reaped, `what` says why, and the next call starts a fresh one. A worker
 * with a timeout (lib:) must answer within it, or within `limit_s` when
 * that is > 0; one without (a builtin backend) is waited for. */
harness_worker_status harness_worker_call(harness_worker *w, const gm_case *c, gm_outputs *out,
                                          double limit_s, char *what, size_t size);

#endif
