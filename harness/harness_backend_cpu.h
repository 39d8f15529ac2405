/* harness_backend_cpu: the host execution of the fused kernel on one case
 * (kernel/fused_cpu.h over harness_launch's arguments); an out-of-bounds access
 * is the outputs' error ("out_of_bounds: ..."), never performed. Private to
 * harness/. */
#ifndef HARNESS_BACKEND_CPU_H
#define HARNESS_BACKEND_CPU_H

#include <stdbool.h>
#include <stddef.h>

#include "fused_params.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

/* One launch over host buffers (a hub's shared block): false when an access
 * was out of bounds, `error` then saying which ("out_of_bounds: ..."). */
bool harness_backend_cpu_launch(const fused_params *p, char *error, size_t size);

/* `out` must hold the prior contents (gm_outputs_prepare). Never fails. */
bool harness_backend_cpu_run(const gm_case *c, gm_outputs *out, gm_error *err);

#endif
