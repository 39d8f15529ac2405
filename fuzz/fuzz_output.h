/* fuzz_output: the mirror of fuzz_input, for the encoder. Selector bytes
 * go to the front stream and raw payloads to the back stream, each in the
 * order the decoder consumes them; finishing lays them out as
 * front + reversed(back), which fuzz_input reads back in the same order.
 */
#ifndef FUZZ_OUTPUT_H
#define FUZZ_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"

typedef struct {
    uint8_t *bytes;
    size_t len, cap;
} fuzz_output_stream;

typedef struct {
    fuzz_output_stream front, back;
    bool out_of_memory; /* sticky: reported by fuzz_output_finish */
} fuzz_output;

void fuzz_output_init(fuzz_output *o);
void fuzz_output_free(fuzz_output *o);

void fuzz_output_byte(fuzz_output *o, uint8_t b);
/* What fuzz_input_raw(in, nbytes) reads as `v`. */
void fuzz_output_raw(fuzz_output *o, uint64_t v, unsigned nbytes);
/* What fuzz_input_range(in, lo, hi) reads as `v` (lo <= v <= hi). */
void fuzz_output_range(fuzz_output *o, uint64_t lo, uint64_t hi, uint64_t v);

/* Bytes written so far, both streams. */
size_t fuzz_output_size(const fuzz_output *o);

/* The input bytes (malloc'd, owned by the caller); false on out of memory. */
bool fuzz_output_finish(fuzz_output *o, uint8_t **data, size_t *size, gm_error *err);

#endif
