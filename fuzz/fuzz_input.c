#include "fuzz_input.h"

#include "fuzz_int.h"

void fuzz_input_init(fuzz_input *in, const uint8_t *data, size_t size) {
    in->data = data;
    in->front = 0;
    in->back = data != NULL ? size : 0;
}

size_t fuzz_input_remaining(const fuzz_input *in) { return in->back - in->front; }

uint8_t fuzz_input_byte(fuzz_input *in) {
    if (in->front == in->back) {
        return 0;
    }
    return in->data[in->front++];
}

size_t fuzz_input_pick(fuzz_input *in, size_t n) { return fuzz_input_byte(in) % n; }

bool fuzz_input_chance(fuzz_input *in, unsigned threshold) {
    return fuzz_input_byte(in) < threshold;
}

uint64_t fuzz_input_raw(fuzz_input *in, unsigned nbytes) {
    uint64_t v = 0;
    for (unsigned k = 0; k < nbytes && in->back > in->front; k++) {
        /* The byte nearest the end is the most significant one read. */
        v = (v << 8) | in->data[--in->back];
    }
    return v;
}

int64_t fuzz_input_raw_signed(fuzz_input *in, unsigned nbytes) {
    uint64_t v = fuzz_input_raw(in, nbytes);
    if (nbytes > 0 && nbytes < 8 && (v >> (nbytes * 8 - 1)) & 1) {
        v |= ~(uint64_t)0 << (nbytes * 8);
    }
    return fuzz_int_i64(v);
}

unsigned fuzz_input_range_bytes(uint64_t span) {
    unsigned n = 0;
    while (span != 0) {
        n++;
        span >>= 8;
    }
    return n;
}

uint64_t fuzz_input_range(fuzz_input *in, uint64_t lo, uint64_t hi) {
    uint64_t span = hi - lo;
    uint64_t raw = fuzz_input_raw(in, fuzz_input_range_bytes(span));
    if (span != UINT64_MAX) {
        raw %= span + 1;
    }
    return lo + raw;
}
