/* fuzz_input: a fuzzer's byte string as a source of choices and values, in
 * the manner of libFuzzer's FuzzedDataProvider (written from scratch).
 *
 * The input is read from both ends:
 *   front  one-byte selectors: header fields, record tags, table picks.
 *          Structure comes from here, so a byte keeps its meaning when a
 *          value elsewhere changes size.
 *   back   raw integer payloads, read backwards: a value of n bytes is the
 *          little-endian integer in the n bytes that end where the back
 *          cursor stands, so a little-endian word appended to an input is
 *          the next raw value read (the dictionary relies on this).
 * When the two cursors meet the input is exhausted: a selector reads as 0,
 * a raw value keeps only the bytes it got (and is 0 with none).
 *
 * docs/FUZZING.md describes the whole byte layout built on this.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const uint8_t *data;
    size_t front; /* next byte read from the front */
    size_t back;  /* one past the next byte read from the back */
} fuzz_input;

void fuzz_input_init(fuzz_input *in, const uint8_t *data, size_t size);

/* Bytes not read yet, from either end. */
size_t fuzz_input_remaining(const fuzz_input *in);

/* One selector byte from the front; 0 when exhausted. */
uint8_t fuzz_input_byte(fuzz_input *in);

/* A table index in [0, n) from one front byte (n >= 1). */
size_t fuzz_input_pick(fuzz_input *in, size_t n);

/* True when a front byte is below `threshold` (out of 256). */
bool fuzz_input_chance(fuzz_input *in, unsigned threshold);

/* `nbytes` (<= 8) from the back as an unsigned little-endian value. */
uint64_t fuzz_input_raw(fuzz_input *in, unsigned nbytes);

/* The same, sign-extended from nbytes * 8 bits. */
int64_t fuzz_input_raw_signed(fuzz_input *in, unsigned nbytes);

/* An integer in [lo, hi] from the fewest back bytes that cover the range. */
uint64_t fuzz_input_range(fuzz_input *in, uint64_t lo, uint64_t hi);

/* How many bytes fuzz_input_range reads for a span of hi - lo. */
unsigned fuzz_input_range_bytes(uint64_t span);

#endif
