/* harness_libtarget: a lib: target (docs/TARGETS.md) inside its worker process:
 * a shared library exporting gmfuzz's C ABI (kernel/gmfuzz_kernel.h),
 * loaded with dlopen, driven through the CUDA runtime found at run time
 * (the library's own, or libcudart.so.*), so that any gmfuzz build, CUDA or
 * not, can fuzz a vendor's kernel. Private to harness/ (harness_worker.c). */
#ifndef HARNESS_LIBTARGET_H
#define HARNESS_LIBTARGET_H

#include <stdbool.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

typedef struct harness_libtarget harness_libtarget;

/* Loads the library and the CUDA runtime, checks the ABI version. */
bool harness_libtarget_open(const char *path, harness_libtarget **out, gm_error *err);
void harness_libtarget_close(harness_libtarget *t);

/* Uploads the case and the prior contents of `out`, launches once,
 * synchronises, downloads the outputs and the inputs: an input the library
 * changed makes `out` a target_wrote_input (harness_inputs.h). A CUDA error or a refused launch fails with
 * GM_ERR_DEVICE (the worker then exits: the error may be sticky). */
bool harness_libtarget_run(harness_libtarget *t, const gm_case *c, gm_outputs *out, gm_error *err);

#endif
