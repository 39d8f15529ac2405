/* gm_hash: the two hashes gmfuzz uses everywhere, written once.
 *
 * FNV-1a (64 bits) names files after their content or a finding's
 * signature: stable on every machine and build, so names never change
 * between runs. The golden ratio of 2^64 is splitmix64's increment (the
 * generator, harness/harness_gen.c) and spreads a small seed over 64 bits.
 */
#ifndef GM_HASH_H
#define GM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define GM_HASH_GOLDEN 0x9e3779b97f4a7c15ull /* 2^64 / the golden ratio */

/* splitmix64's finalizer: a bijective scramble of x; the generator's
 * output (harness/harness_gen.c), and a counter-based hash for the fuzz
 * decoder and the class keys. */
static inline uint64_t gm_hash_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* FNV-1a of `size` bytes, continuing from `hash` (GM_HASH_FNV_BASIS to start). */
#define GM_HASH_FNV_BASIS 0xcbf29ce484222325ull
static inline uint64_t gm_hash_fnv1a(uint64_t hash, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t k = 0; k < size; k++) {
        hash = (hash ^ p[k]) * 0x100000001b3ull;
    }
    return hash;
}

/* FNV-1a of a NUL-terminated string. */
static inline uint64_t gm_hash_fnv1a_string(const char *s) {
    uint64_t hash = GM_HASH_FNV_BASIS;
    for (; *s != '\0'; s++) {
        hash = (hash ^ (unsigned char)*s) * 0x100000001b3ull;
    }
    return hash;
}

#endif
