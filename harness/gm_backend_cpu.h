/* gm_backend_cpu: the host execution of the fused kernel on one case
 * (kernel/fused_cpu.h over gm_launch's arguments); an out-of-bounds access
 * is the outputs' error ("out_of_bounds: ..."), never performed. Private to
 * harness/. */
#ifndef GM_BACKEND_CPU_H
#define GM_BACKEND_CPU_H

#include <stdbool.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

/* `out` must hold the prior contents (gm_outputs_prepare). Never fails. */
bool gm_backend_cpu_run(const gm_case *c, gm_outputs *out, gm_error *err);

#endif
