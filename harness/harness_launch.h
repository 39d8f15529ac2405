/* harness_launch: the arguments of the fused kernel's launch for one case
 * (fused_params over the case's buffers and the outputs' buffers, host
 * pointers), as every execution of the fused side gets them: the host
 * execution, the CUDA backends, a target hub's shared blocks, lib: and
 * python: targets. Private to harness/ (and its tests). */
#ifndef HARNESS_LAUNCH_H
#define HARNESS_LAUNCH_H

#include "fused_params.h"
#include "gm_case.h"
#include "gm_outputs.h"

/* The launch for `c` over the buffers of `out` (prepared: gm_outputs_prepare). */
void harness_launch_params(const gm_case *c, gm_outputs *out, fused_params *p);

#endif
