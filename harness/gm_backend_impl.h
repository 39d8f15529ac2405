/* Private to harness/: what each backend implementation provides. */
#ifndef GM_BACKEND_IMPL_H
#define GM_BACKEND_IMPL_H

#include "gm_backend.h"

bool gm_backend_cpu_run(const gm_case *c, gm_outputs *out, gm_error *err);

/* The CUDA backend keeps device memory and a stream between runs. */
typedef struct gm_backend_cuda gm_backend_cuda;
bool gm_backend_cuda_open(gm_backend_cuda **out, gm_error *err);
void gm_backend_cuda_close(gm_backend_cuda *cu);
bool gm_backend_cuda_run(gm_backend_cuda *cu, const gm_case *c, gm_outputs *out, gm_error *err);

#endif
