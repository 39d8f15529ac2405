/* gm_target: which implementation the fused side of a differential runs
 * (docs/TARGETS.md), as named on the command line:
 *
 *   builtin:cpu|cuda|cuda-graph|cuda-raw   gmfuzz's own fused kernel
 *   lib:PATH.so                            a library exporting gmfuzz's C ABI
 *   python:[MODULE][:FUNCTION]             a Python entry point in a worker
 *
 * A spec is plain data (no process, no library loaded): gm_backend opens it.
 * The reference side of a three-way run is named the same way
 * (`python:[MODULE][:FUNCTION]`, role legacy).
 */
#ifndef GM_TARGET_H
#define GM_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

typedef enum { GM_TARGET_BUILTIN, GM_TARGET_LIB, GM_TARGET_PYTHON } gm_target_kind;

/* The builtin backends, in the order of their names. */
typedef enum {
    GM_BACKEND_CPU,
    GM_BACKEND_CUDA,
    GM_BACKEND_CUDA_GRAPH,
    GM_BACKEND_CUDA_RAW,
    GM_BACKEND_LIB,    /* lib: targets */
    GM_BACKEND_PYTHON, /* python: targets */
    GM_BACKEND_COUNT
} gm_backend_kind;

#define GM_TARGET_PATH_MAX 1024
#define GM_TARGET_NAME_MAX 128
#define GM_TARGET_DEFAULT_TIMEOUT_S 10.0

typedef struct {
    gm_target_kind kind;
    gm_backend_kind builtin;            /* builtin: which backend */
    char path[GM_TARGET_PATH_MAX];      /* lib: the library; python: MODULE ("" = sglang's) */
    char function[GM_TARGET_NAME_MAX];  /* python: FUNCTION ("" = the role's default) */
    bool device_cpu;                    /* python: tensors on the CPU (--target-device cpu) */
    double timeout_s;                   /* external: the limit of one call */
    char hub[GM_TARGET_NAME_MAX];       /* "": run here; else the target hub @hub runs it (gm_hub.h) */
} gm_target_spec;

const char *gm_backend_kind_name(gm_backend_kind kind);
/* Only the four builtin backends have names that `--backend` takes. */
bool gm_backend_kind_from_name(const char *name, gm_backend_kind *out);

/* The builtin target `kind` (device cuda, default timeout). */
void gm_target_builtin(gm_target_spec *out, gm_backend_kind kind);

/* Parses "builtin:B", "lib:PATH" or "python:[MODULE][:FUNCTION]"; a bare
 * builtin name ("cpu") is accepted as builtin:cpu. The error names what is
 * wrong and lists the forms. Device and timeout keep their defaults. */
bool gm_target_parse(const char *text, gm_target_spec *out, gm_error *err);

/* The canonical text of a spec ("python:examples/torch_fused.py:update"). */
void gm_target_format(const gm_target_spec *t, char *out, size_t size);

/* Whether the target runs outside gmfuzz (lib:, python:): such a target is
 * never sent a case on which the fused model goes out of bounds. */
bool gm_target_is_external(const gm_target_spec *t);

#endif
