/* gm_outputs: the state of the six metadata buffers after one side ran.
 *
 * Buffers are stored as their real dtypes (int32, or int64 for
 * swa_out_cache_loc) in row-major order. A buffer the case does not have is
 * `present == false` with no data. `error` is NULL, or "kind: detail" when
 * the side raised (reference) or would have touched memory out of bounds
 * (fused); then the buffers hold whatever state was reached.
 */
#ifndef GM_OUTPUTS_H
#define GM_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_error.h"

typedef struct {
    bool present;
    int rank;          /* 1 or 2 */
    size_t dims[2];    /* dims[1] is 1 for rank 1 */
    bool is_int64;
    void *data;        /* int32_t[] or int64_t[], dims[0] * dims[1] elements */
} gm_buffer;

typedef struct {
    gm_buffer buf[GM_BUF_COUNT];
    char *error;
} gm_outputs;

void gm_outputs_init(gm_outputs *o);
void gm_outputs_free(gm_outputs *o);

/* Allocates the buffers this case has and fills them with their prior
 * contents: the case's `init`, or zeros, or the mode's cu_seqlens_q preset. */
bool gm_outputs_prepare(gm_outputs *o, const gm_case *c, gm_error *err);

/* Allocates a buffer of the shape that `c` gives it (zeros). */
bool gm_outputs_alloc_buf(gm_outputs *o, const gm_case *c, gm_buf_id id, gm_error *err);

bool gm_outputs_copy(gm_outputs *dst, const gm_outputs *src, gm_error *err);

/* Sets `error` to "kind: detail" (printf-style); replaces an earlier one. */
void gm_outputs_set_error(gm_outputs *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

size_t gm_buffer_count(const gm_buffer *b);
int64_t gm_buffer_get(const gm_buffer *b, size_t flat);
void gm_buffer_set(gm_buffer *b, size_t flat, int64_t v);
static inline int32_t *gm_buffer_i32(gm_buffer *b) { return (int32_t *)b->data; }
static inline int64_t *gm_buffer_i64(gm_buffer *b) { return (int64_t *)b->data; }

#endif
