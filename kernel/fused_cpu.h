/* fused_cpu: the fused kernel executed on the host.
 *
 * Runs the programs of the launch grid in order (row programs, the scan
 * program, the SWA-out programs) over the element functions of
 * fused_program.h. Every access is checked against its buffer first: an
 * input that would make the kernel read or write outside its buffers
 * (undefined behaviour on a GPU) is reported, never performed. The bounds
 * are the buffers' real allocations (fused_extent.h: rows x real width,
 * element counts), not the lengths and widths the semantics pass to an
 * access, so a semantics bug that computes them wrong cannot write past a
 * buffer either.
 */
#ifndef FUSED_CPU_H
#define FUSED_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fused_params.h"

/* The first access that fell outside its buffer. */
typedef struct {
    bool hit;
    fused_buf buf;
    bool write;
    int64_t index;   /* flat element index; for a cell write, the column */
    int64_t row;     /* for a cell write: the row; -1 otherwise */
    int64_t len;     /* the bound: buffer length; for a cell write, the row width */
    int64_t given_width; /* a cell write through a wrong row width: that width; else 0 */
} fused_oob;

/* Runs one launch. Returns true when every access was in bounds; false with
 * `oob` describing the first one that was not (the run stops there, so the
 * buffers then hold a partial result). bs == 0 does nothing. */
bool fused_cpu_run(const fused_params *p, fused_oob *oob);

/* "read of req_to_token[4100], length 4096" and the like. */
void fused_oob_describe(const fused_oob *oob, char *out, size_t size);

#endif
