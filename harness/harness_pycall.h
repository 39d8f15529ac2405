/* harness_pycall: a case as the keyword arguments of a Python call
 * (docs/TARGETS.md "The fused call", "The legacy call"). The OUT tensors
 * are `out`'s buffers, which must hold their prior contents
 * (gm_outputs_prepare): the worker's answer is written back into them. */
#ifndef HARNESS_PYCALL_H
#define HARNESS_PYCALL_H

#include "gm_case.h"
#include "gm_outputs.h"
#include "harness_pyworker.h"

/* update_trtllm_mha_graph_metadata's arguments (SPEC section 6). */
void harness_pycall_add_fused(harness_pybatch *b, const gm_case *c, gm_outputs *out);

/* The legacy sequence's arguments (python/gmfuzz_legacy.py). */
void harness_pycall_add_legacy(harness_pybatch *b, const gm_case *c, gm_outputs *out);

#endif
