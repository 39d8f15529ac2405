/* fuzz_decode: fuzzer bytes -> a case. EVERY byte string decodes, to a
 * case that passes gm_case_check and that the JSON formats can hold; the
 * only failure is running out of memory.
 *
 *   header   FUZZ_HEADER_LEN selectors (fuzz_header.h): sizes, optional
 *            parts, one generator per array -> the recipe, built into a case
 *   records  until the input ends (fuzz_record.h): explicit values on top
 *   confine  for most inputs (a header bit), indices are pulled back into
 *            range so that the fused kernel's comparison is meaningful;
 *            the rest may break its preconditions
 *
 * docs/FUZZING.md gives the complete byte layout.
 */
#ifndef FUZZ_DECODE_H
#define FUZZ_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "fuzz_input.h"
#include "fuzz_recipe.h"
#include "fuzz_record.h"

/* fuzz_decode (fuzz.h), and the recipe the header gave: the hint that lets
 * fuzz_encode reuse the input's generators (fuzz_encode_options). */
bool fuzz_decode_recipe(const uint8_t *data, size_t size, gm_case *out, fuzz_recipe *recipe,
                        gm_error *err);

/* The same, the case built from `base` where it can (fuzz_recipe_build_from;
 * NULL: none). */
bool fuzz_decode_from(const uint8_t *data, size_t size, gm_case *out, fuzz_recipe *recipe,
                      const fuzz_recipe_donor *base, gm_error *err);

/* The records part: applies the records from `in` (past the header) to the
 * case of `t`, which recipe `r` built, until the input ends. */
void fuzz_decode_records(fuzz_input *in, const fuzz_recipe *r, const fuzz_record_target *t);

#endif
