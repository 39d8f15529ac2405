#include "fuzz_output.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

void fuzz_output_init(fuzz_output *o) { memset(o, 0, sizeof *o); }

void fuzz_output_free(fuzz_output *o) {
    free(o->front.bytes);
    free(o->back.bytes);
    fuzz_output_init(o);
}

static void fuzz_output_push(fuzz_output *o, fuzz_output_stream *s, uint8_t b) {
    if (o->out_of_memory) {
        return;
    }
    if (s->len == s->cap) {
        size_t cap = s->cap == 0 ? 256 : s->cap * 2;
        uint8_t *grown = realloc(s->bytes, cap);
        if (grown == NULL) {
            o->out_of_memory = true;
            return;
        }
        s->bytes = grown;
        s->cap = cap;
    }
    s->bytes[s->len++] = b;
}

void fuzz_output_byte(fuzz_output *o, uint8_t b) { fuzz_output_push(o, &o->front, b); }

void fuzz_output_raw(fuzz_output *o, uint64_t v, unsigned nbytes) {
    /* fuzz_input_raw reads the most significant byte first. */
    for (unsigned k = nbytes; k-- > 0;) {
        fuzz_output_push(o, &o->back, (uint8_t)(v >> (8 * k)));
    }
}

void fuzz_output_range(fuzz_output *o, uint64_t lo, uint64_t hi, uint64_t v) {
    fuzz_output_raw(o, v - lo, fuzz_input_range_bytes(hi - lo));
}

size_t fuzz_output_size(const fuzz_output *o) { return o->front.len + o->back.len; }

bool fuzz_output_finish(fuzz_output *o, uint8_t **data, size_t *size, gm_error *err) {
    size_t n = fuzz_output_size(o);
    uint8_t *bytes = o->out_of_memory ? NULL : malloc(n + 1);
    if (bytes == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "fuzz_encode: out of memory for %zu bytes", n);
    }
    if (o->front.len > 0) {
        memcpy(bytes, o->front.bytes, o->front.len);
    }
    for (size_t k = 0; k < o->back.len; k++) {
        bytes[n - 1 - k] = o->back.bytes[k];
    }
    *data = bytes;
    *size = n;
    return true;
}
