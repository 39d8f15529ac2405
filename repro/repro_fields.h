/* repro_fields: the few fields of a reproducer (gmfuzz-repro-v1) that
 * triage needs, read without building its case and buffers.
 *
 * A run folder holds thousands of reproducers, an unminimized one up to
 * megabytes (out/fuzz-20261129T120013Z: 2,283 failures, 940 MB); reading
 * each whole with gm_json_read_file takes ~50 times longer than this. The
 * whole file's JSON syntax is checked (gm_jsonscan), and the fields read
 * here are checked as strictly as gm_json checks them; the rest of the
 * document is not (`gmfuzz replay` does that).
 */
#ifndef REPRO_FIELDS_H
#define REPRO_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "triage_classify.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "repro_rundir.h"

typedef struct {
    triage_finding finding;             /* parsed back from "signature" */
    bool has_found;                 /* "found" given (not null) */
    char found_at[REPRO_RUNDIR_TIME_MAX];
    uint64_t found_execs;
    int64_t bs;                     /* entries of case.req_pool_indices */
    gm_difference first_difference; /* present == false: none recorded */
    long long bytes;                /* the file's size */
} repro_fields;

/* Reads `path`; false (err naming the file and the field) when it is not
 * a reproducer. */
bool repro_fields_read(const char *path, repro_fields *out, gm_error *err);

#endif
