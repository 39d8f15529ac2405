/* harness_wire_case: a case as bytes for the worker socket (harness_worker.c).
 *
 * Both ends are the same program (the worker is forked), so the encoding
 * is the plain in-memory layout: a header of the scalars and lengths, then
 * each present array's raw elements. It is a private transport format,
 * never written to disk (files are JSON, docs/FORMATS.md). JSON here was
 * the bottleneck: a case of 50,000 integers took milliseconds to print and
 * parse, the raw copy microseconds. The case's name is not sent: the
 * worker does not need it. */
#ifndef HARNESS_WIRE_CASE_H
#define HARNESS_WIRE_CASE_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

/* A malloc'd encoding of `c` (NULL when memory runs out); *len its size. */
char *harness_wire_case_encode(const gm_case *c, size_t *len);

/* Rebuilds a case (fresh from gm_case_init) from an encoding; false when
 * the bytes are not one (err set) or memory runs out. */
bool harness_wire_case_decode(const char *bytes, size_t len, gm_case *c, gm_error *err);

/* The fused side's answer for one case: u8 has_error, u32 error length,
 * the error, then the raw bytes of each present buffer of `o` in gm_buf_id
 * order. Malloc'd (NULL when memory runs out); *len its size. */
char *harness_wire_case_outputs_encode(const gm_outputs *o, size_t *len);

/* Writes an answer into `out`, which gm_outputs_prepare made for the same
 * case (it gives the buffers' sizes); false when the bytes do not fit. */
bool harness_wire_case_outputs_decode(const char *bytes, size_t len, gm_outputs *out);

#endif
