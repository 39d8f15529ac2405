/* gm_pycall: a case as the keyword arguments of a Python call
 * (docs/TARGETS.md "The fused call", "The legacy call"). The OUT tensors
 * are `out`'s buffers, which must hold their prior contents
 * (gm_outputs_prepare): the worker's answer is written back into them. */
#ifndef GM_PYCALL_H
#define GM_PYCALL_H

#include "gm_case.h"
#include "gm_outputs.h"
#include "gm_pyworker.h"

/* update_trtllm_mha_graph_metadata's arguments (SPEC section 6). */
void gm_pycall_add_fused(gm_pybatch *b, const gm_case *c, gm_outputs *out);

/* The legacy sequence's arguments (python/gmfuzz_legacy.py). */
void gm_pycall_add_legacy(gm_pybatch *b, const gm_case *c, gm_outputs *out);

#endif
