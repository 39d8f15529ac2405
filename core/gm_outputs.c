#include "gm_outputs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gm_outputs_init(gm_outputs *o) { memset(o, 0, sizeof *o); }

void gm_outputs_free(gm_outputs *o) {
    for (int b = 0; b < GM_BUF_COUNT; b++) {
        free(o->buf[b].data);
    }
    free(o->error);
    gm_outputs_init(o);
}

size_t gm_buffer_count(const gm_buffer *b) { return b->present ? b->dims[0] * b->dims[1] : 0; }

int64_t gm_buffer_get(const gm_buffer *b, size_t flat) {
    return b->is_int64 ? ((const int64_t *)b->data)[flat] : ((const int32_t *)b->data)[flat];
}

void gm_buffer_set(gm_buffer *b, size_t flat, int64_t v) {
    if (b->is_int64) {
        ((int64_t *)b->data)[flat] = v;
    } else {
        /* Callers store values already in int32 range (init is range
         * checked by the reader); the cast never truncates here. */
        ((int32_t *)b->data)[flat] = (int32_t)v;
    }
}

bool gm_outputs_alloc_buf(gm_outputs *o, const gm_case *c, gm_buf_id id, gm_error *err) {
    gm_buffer *b = &o->buf[id];
    free(b->data);
    memset(b, 0, sizeof *b);
    if (!gm_case_buf_shape(c, id, &b->rank, b->dims)) {
        return true; /* the case has no such buffer */
    }
    b->is_int64 = gm_buf_is_int64(id);
    size_t n = b->dims[0] * b->dims[1];
    /* calloc(n + 1): zero-filled, and never a NULL "present" buffer. */
    b->data = calloc(n + 1, b->is_int64 ? sizeof(int64_t) : sizeof(int32_t));
    if (b->data == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for %s (%zu elements)",
                            gm_buf_name(id), n);
    }
    b->present = true;
    return true;
}

/* The cu_seqlens_q contents before the rebuild (SPEC section 1, forward
 * modes): k in decode modes, k * num_draft_tokens in target_verify, zeros in
 * the extend modes. The multiplication wraps like the int32 tensor does. */
static int64_t gm_outputs_q_preset(const gm_case *c, size_t k) {
    uint32_t step;
    switch (c->mode) {
    case GM_MODE_DECODE:
    case GM_MODE_DRAFT_DECODE: step = 1; break;
    case GM_MODE_TARGET_VERIFY: step = (uint32_t)c->num_draft_tokens; break;
    default: return 0;
    }
    uint32_t u = (uint32_t)k * step;
    return u < 0x80000000u ? (int64_t)u : (int64_t)u - ((int64_t)1 << 32);
}

/* Every element = v, in the buffer's own type (a loop the compiler
 * vectorizes: the prior contents are filled three times a case). */
static void gm_outputs_fill_all(gm_buffer *b, int64_t v) {
    size_t n = gm_buffer_count(b);
    if (b->is_int64) {
        int64_t *d = b->data;
        for (size_t k = 0; k < n; k++) {
            d[k] = v;
        }
    } else {
        int32_t *d = b->data;
        for (size_t k = 0; k < n; k++) {
            d[k] = (int32_t)v; /* in int32 range: the reader checks init */
        }
    }
}

static void gm_outputs_fill_prior(gm_buffer *b, const gm_case *c, gm_buf_id id) {
    const gm_init *in = &c->init[id];
    size_t n = gm_buffer_count(b);
    if (in->kind == GM_INIT_FILL) {
        gm_outputs_fill_all(b, in->fill);
    } else if (in->kind == GM_INIT_ARRAY) {
        for (size_t k = 0; k < n; k++) {
            gm_buffer_set(b, k, in->values[k]);
        }
    } else if (id == GM_BUF_CU_SEQLENS_Q) {
        for (size_t k = 0; k < n; k++) {
            gm_buffer_set(b, k, gm_outputs_q_preset(c, k));
        }
    } /* else zeros, as calloc left them */
}

bool gm_outputs_prepare(gm_outputs *o, const gm_case *c, gm_error *err) {
    gm_outputs_free(o);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (!gm_outputs_alloc_buf(o, c, (gm_buf_id)id, err)) {
            gm_outputs_free(o);
            return false;
        }
        if (o->buf[id].present) {
            gm_outputs_fill_prior(&o->buf[id], c, (gm_buf_id)id);
        }
    }
    return true;
}

bool gm_outputs_copy(gm_outputs *dst, const gm_outputs *src, gm_error *err) {
    gm_outputs_init(dst);
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_buffer *s = &src->buf[id];
        gm_buffer *d = &dst->buf[id];
        *d = *s;
        d->data = NULL;
        if (!s->present) {
            continue;
        }
        size_t bytes = gm_buffer_count(s) * (s->is_int64 ? 8 : 4);
        d->data = malloc(bytes + 1);
        if (d->data == NULL) {
            gm_outputs_free(dst);
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory copying outputs");
        }
        memcpy(d->data, s->data, bytes);
    }
    if (src->error != NULL) {
        gm_outputs_set_error(dst, "%s", src->error);
        if (dst->error == NULL) {
            gm_outputs_free(dst);
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory copying outputs");
        }
    }
    return true;
}

void gm_outputs_set_error(gm_outputs *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(o->error);
    o->error = n < 0 ? NULL : malloc((size_t)n + 1);
    if (o->error == NULL) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(o->error, (size_t)n + 1, fmt, ap);
    va_end(ap);
}
