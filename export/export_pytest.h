/* export_pytest: a reproducer as a standalone pytest file, so that a triager
 * can drop it into sglang's own test suite.
 *
 * The file is the reproducer's data as Python constants (the case, the
 * prior contents of the buffers, what gmfuzz recorded for both sides, the
 * live columns at the recorded level) followed by a fixed template
 * (export/export_pytest_template.py, embedded at build time) with two tests:
 *
 *   test_legacy_sequence  the legacy ATen op sequence (SPEC section 2) in
 *                         torch must give the recorded reference, or raise
 *                         where it raised;
 *   test_fused_kernel     update_trtllm_mha_graph_metadata, imported from
 *                         $GMFUZZ_FUSED_MODULE or sglang's module, must
 *                         leave the recorded fused buffers (never run when
 *                         the fused kernel would overrun its buffers).
 *
 * The header docstring names the reproducer, its signature, the first
 * difference and the gmfuzz version that wrote the file.
 */
#ifndef EXPORT_PYTEST_H
#define EXPORT_PYTEST_H

#include <stdbool.h>
#include <stdio.h>

#include "gm_error.h"
#include "gm_json.h"

typedef struct {
    const char *source;    /* the reproducer's path, as the header shows it */
    const char *exporter;  /* "gmfuzz 0.1.0": the tool writing the file */
    const gm_outputs *fused_model; /* found on an external target: what the fused model
                                      writes (the file expects it); NULL: the recording */
} export_pytest_origin;

/* Writes the pytest file of reproducer `doc` to `out`. Fails (err set) for
 * a document that is not a reproducer, or when writing fails. */
bool export_pytest_write(FILE *out, const gm_doc *doc, const export_pytest_origin *origin,
                         gm_error *err);

#endif
