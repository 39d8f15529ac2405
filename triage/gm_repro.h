/* gm_repro: builds and writes gmfuzz-repro-v1 files from a classified run. */
#ifndef GM_REPRO_H
#define GM_REPRO_H

#include <stdbool.h>
#include <stdint.h>

#include "harness.h"
#include "gm_classify.h"
#include "gm_error.h"
#include "gm_json.h"

typedef struct {
    const char *found_by;   /* "libfuzzer", "afl++", "replay", "minimize" */
    uint64_t execs;         /* executions when found */
    bool minimized;
    const char *found_at;   /* ISO-8601 time when found; NULL: now (UTC) */
    const gm_target_record *target; /* an external target (harness_backend_identity); NULL: builtin */
} gm_repro_origin;

/* Writes the reproducer of run `r` of case `c` (classified as `f`) to
 * `path`, atomically (gm_json_write_file). */
bool gm_repro_write(const char *path, const gm_case *c, const harness_run_result *r,
                    const gm_finding *f, harness_backend_kind backend, const gm_repro_origin *origin,
                    gm_error *err);

/* The finding that a reproducer's recorded outputs show, classified now:
 * the same buffers judged at the recorded level (the recorded status where
 * the buffers were not compared). It gives the bucket of a file written
 * before buckets existed (docs/FORMATS.md), without running anything. */
void gm_repro_recorded_finding(const gm_doc *doc, gm_finding *out);

#endif
