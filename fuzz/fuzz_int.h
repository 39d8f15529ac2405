/* fuzz_int: integer conversions and arithmetic that wrap instead of
 * overflowing. The decoder computes with values straight from the fuzzer
 * (any int64), so every sum, product and narrowing goes through these:
 * signed overflow is undefined behaviour, unsigned wrap is not.
 */
#ifndef FUZZ_INT_H
#define FUZZ_INT_H

#include <stdint.h>
#include <string.h>

/* The int64 with the same two's-complement bits as `u`. int64_t has no
 * padding and is two's complement (C17 7.20.1.1), so copying the bits is
 * exact, and compilers make it a plain move (the bulk loops vectorize). */
static inline int64_t fuzz_int_i64(uint64_t u) {
    int64_t s;
    memcpy(&s, &u, sizeof s);
    return s;
}

/* The low 32 bits of `u` as an int32 (what an int64 -> int32 cast keeps). */
static inline int32_t fuzz_int_low32(uint64_t u) {
    uint32_t w = (uint32_t)u;
    int32_t s;
    memcpy(&s, &w, sizeof s);
    return s;
}

static inline int64_t fuzz_int_add(int64_t a, int64_t b) {
    return fuzz_int_i64((uint64_t)a + (uint64_t)b);
}

static inline int64_t fuzz_int_sub(int64_t a, int64_t b) {
    return fuzz_int_i64((uint64_t)a - (uint64_t)b);
}

static inline int64_t fuzz_int_mul(int64_t a, int64_t b) {
    return fuzz_int_i64((uint64_t)a * (uint64_t)b);
}

/* a + b * i, wrapping: the value of an arithmetic progression. */
static inline int64_t fuzz_int_affine(int64_t a, int64_t b, uint64_t i) {
    return fuzz_int_i64((uint64_t)a + (uint64_t)b * i);
}

/* Python's `v % m` for m >= 1: always in [0, m). */
static inline uint64_t fuzz_int_mod(int64_t v, uint64_t m) {
    if (v >= 0) {
        return (uint64_t)v % m;
    }
    uint64_t r = ((uint64_t)0 - (uint64_t)v) % m;
    return r == 0 ? 0 : m - r;
}

#endif
