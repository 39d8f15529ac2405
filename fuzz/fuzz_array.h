/* fuzz_array: the case's integer arrays as the records of a fuzzer input
 * address them, each with its element type, its shape and the value
 * domain its records draw from.
 */
#ifndef FUZZ_ARRAY_H
#define FUZZ_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_value.h"
#include "gm_case.h"

typedef enum {
    FUZZ_ARRAY_SEQ_LENS,
    FUZZ_ARRAY_SEQ_LENS_CPU,
    FUZZ_ARRAY_REQ_POOL_INDICES,
    FUZZ_ARRAY_QLENS,
    FUZZ_ARRAY_REQ_TO_TOKEN,
    FUZZ_ARRAY_MAPPING,
    FUZZ_ARRAY_OUT_CACHE_LOC,
    FUZZ_ARRAY_INIT, /* + gm_buf_id: init arrays of the six output buffers */
    FUZZ_ARRAY_COUNT = FUZZ_ARRAY_INIT + GM_BUF_COUNT
} fuzz_array;

typedef struct {
    void *data;       /* int32_t[] or int64_t[] */
    bool storage64;   /* data is int64_t[] */
    bool value32;     /* values are int32: stores keep the low 32 bits */
    size_t len;
    size_t row_len;   /* elements per row (len for a 1-D array), >= 1 */
    size_t col_page;  /* column step that addresses favour (page size, or 1) */
    fuzz_domain domain;
} fuzz_array_view;

/* Whether records address this array by (row, column) rather than index;
 * fixed per array, so that parsing never depends on the case. */
bool fuzz_array_two_d(fuzz_array a);
fuzz_domain fuzz_array_domain(fuzz_array a);
const char *fuzz_array_name(fuzz_array a);

/* The array in `c`; false when the case lacks it (absent optional input,
 * init that is not an array). */
bool fuzz_array_view_of(const gm_case *c, fuzz_array a, fuzz_array_view *v);

int64_t fuzz_array_get(const fuzz_array_view *v, size_t i);
void fuzz_array_set(const fuzz_array_view *v, size_t i, int64_t x);

#endif
