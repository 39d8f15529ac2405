/* Private to harness/: what each backend implementation provides. */
#ifndef GM_BACKEND_IMPL_H
#define GM_BACKEND_IMPL_H

#include "gm_backend.h"

bool gm_backend_cpu_run(const gm_case *c, gm_outputs *out, gm_error *err);

typedef enum {
    GM_CUDA_CHECKED, /* one checked launch per case */
    GM_CUDA_GRAPH,   /* checked launch replayed from a CUDA graph per key */
    GM_CUDA_RAW,     /* the production kernel, unchecked */
} gm_cuda_mode;

/* The CUDA backends, inside the process that owns the CUDA context (a
 * worker, gm_worker.h). They keep device memory, a stream and graphs
 * between runs. `out` must hold the prior contents (gm_outputs_prepare). A
 * CUDA error fails the run with GM_ERR_DEVICE; after a sticky one the
 * process can do no more CUDA work. */
typedef struct gm_backend_cuda gm_backend_cuda;
bool gm_backend_cuda_open(gm_cuda_mode mode, gm_backend_cuda **out, gm_error *err);
void gm_backend_cuda_close(gm_backend_cuda *cu);
bool gm_backend_cuda_run(gm_backend_cuda *cu, const gm_case *c, gm_outputs *out, gm_error *err);

/* Writes `c` with the device's error message to a new file in `dir`;
 * `path` receives its name. */
bool gm_backend_save_crash(const char *dir, const gm_case *c, const char *message, char *path,
                           size_t path_size, gm_error *err);

#endif
