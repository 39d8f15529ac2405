/* harness_target: which implementation the fused side of a differential runs
 * (docs/TARGETS.md), as named on the command line:
 *
 *   builtin:cpu|cuda|cuda-graph|cuda-raw   gmfuzz's own fused kernel
 *   lib:PATH.so                            a library exporting gmfuzz's C ABI
 *   python:[MODULE][:FUNCTION]             a Python entry point in a worker
 *
 * A spec is plain data (no process, no library loaded): harness_backend opens it.
 * The reference side of a three-way run is named the same way
 * (`python:[MODULE][:FUNCTION]`, role legacy).
 */
#ifndef HARNESS_TARGET_H
#define HARNESS_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

typedef enum { HARNESS_TARGET_BUILTIN, HARNESS_TARGET_LIB, HARNESS_TARGET_PYTHON } harness_target_kind;

/* The builtin backends, in the order of their names. */
typedef enum {
    HARNESS_BACKEND_CPU,
    HARNESS_BACKEND_CUDA,
    HARNESS_BACKEND_CUDA_GRAPH,
    HARNESS_BACKEND_CUDA_RAW,
    HARNESS_BACKEND_LIB,    /* lib: targets */
    HARNESS_BACKEND_PYTHON, /* python: targets */
    HARNESS_BACKEND_COUNT
} harness_backend_kind;

#define HARNESS_TARGET_PATH_MAX 1024
#define HARNESS_TARGET_NAME_MAX 128
#define HARNESS_TARGET_DEFAULT_TIMEOUT_S 10.0

typedef struct {
    harness_target_kind kind;
    harness_backend_kind builtin;            /* builtin: which backend */
    char path[HARNESS_TARGET_PATH_MAX];      /* lib: the library; python: MODULE ("" = sglang's) */
    char function[HARNESS_TARGET_NAME_MAX];  /* python: FUNCTION ("" = the role's default) */
    bool device_cpu;                    /* python: tensors on the CPU (--target-device cpu) */
    double timeout_s;                   /* external: the limit of one call */
    char hub[HARNESS_TARGET_NAME_MAX];       /* "": run here; else the target hub @hub runs it (harness_hub.h) */
} harness_target_spec;

const char *harness_target_backend_name(harness_backend_kind kind);
/* Only the four builtin backends have names that `--backend` takes. */
bool harness_target_backend_from_name(const char *name, harness_backend_kind *out);

/* The builtin target `kind` (device cuda, default timeout). */
void harness_target_builtin(harness_target_spec *out, harness_backend_kind kind);

/* Parses "builtin:B", "lib:PATH" or "python:[MODULE][:FUNCTION]"; a bare
 * builtin name ("cpu") is accepted as builtin:cpu. The error names what is
 * wrong and lists the forms. Device and timeout keep their defaults. */
bool harness_target_parse(const char *text, harness_target_spec *out, gm_error *err);

/* The canonical text of a spec ("python:examples/torch_fused.py:update"). */
void harness_target_format(const harness_target_spec *t, char *out, size_t size);

/* Whether the target runs outside gmfuzz (lib:, python:): such a target is
 * never sent a case on which the fused model goes out of bounds. */
bool harness_target_is_external(const harness_target_spec *t);

#endif
