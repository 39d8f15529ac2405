/* gm_show: one run's differences for a person (`gmfuzz show`): the verdict,
 * the signature and its classes, the errors, and the differing elements
 * side by side, each with its own class (gm_classify_element):
 *
 *   buffer[index]             reference        fused  class
 *   page_table[0][0]                 -1            0  negative_token_rounding
 *
 * Listed are the elements that the verdict's level compares; elements
 * that differ where live does not look are counted, not listed.
 */
#ifndef GM_SHOW_H
#define GM_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gm_classify.h"
#include "gm_error.h"
#include "gm_json.h"
#include "harness.h"

typedef struct {
    gm_buf_id buf;
    int rank;
    size_t index[2];
    int64_t reference, fused;
    gm_class cls;
} gm_show_row;

typedef struct {
    gm_show_row *rows;  /* the first `max_rows` compared differing elements */
    size_t n_rows;
    size_t compared;    /* compared elements that differ (n_rows of them listed) */
    size_t uncompared;  /* elements that differ where the level does not compare */
    unsigned misshaped; /* bit (1u << gm_buf_id): on one side only, or shaped differently */
} gm_show_diffs;

/* The differing elements of `r`, in buffer order, then row-major. A run
 * whose buffers were not compared (legacy raised, fused out of bounds) has
 * none. False only when memory runs out. */
bool gm_show_differences(const gm_case *c, const harness_run_result *r, size_t max_rows,
                         gm_show_diffs *out, gm_error *err);
void gm_show_diffs_free(gm_show_diffs *d);

/* A run result made of what a vector or a reproducer records (its two
 * outputs), judged at `level`: what show displays without re-running. */
bool gm_show_recorded(const gm_doc *doc, gm_compare level, harness_run_result *out, gm_error *err);

/* Prints the verdict, signature, classes, errors and at most `max_rows`
 * differing elements ("... N more" after them). */
bool gm_show_result(FILE *out, const gm_case *c, const harness_run_result *r, size_t max_rows,
                    gm_error *err);

#endif
