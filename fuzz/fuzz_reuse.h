/* fuzz_reuse: a decoder that keeps the case built from the last input's
 * header. libFuzzer mutates one corpus input several times in a row, and
 * most mutations leave the header alone: such an input's case is the kept
 * one with its own records applied, and building it again (every element of
 * req_to_token, the mapping, the init arrays) was a fifth of the target's
 * time. After the check the records' writes are taken back (fuzz_undo.h).
 * A header that differs builds its case from the kept one
 * (fuzz_recipe_build_from): the arrays whose generator it leaves alone are
 * moved over, only the others are built.
 *
 * The case handed out is exactly fuzz_decode's for the same bytes; it is the
 * keeper's, read-only, and valid until fuzz_reuse_done. The reference and the
 * kernel still run on every input: only the building is saved.
 */
#ifndef FUZZ_REUSE_H
#define FUZZ_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_record.h"
#include "fuzz_recipe.h"
#include "fuzz_undo.h"
#include "gm_case.h"
#include "gm_error.h"

typedef struct {
    bool held;          /* c is the case the header in key built */
    uint8_t *key;       /* the bytes the header read: its front part, then its back part */
    size_t key_front, key_back, key_cap;
    fuzz_recipe recipe;
    gm_case c;
    fuzz_record_target target; /* views into c, logging into undo */
    fuzz_undo undo;
    uint64_t hits, builds; /* inputs whose case was kept / (partly) built */
} fuzz_reuse;

void fuzz_reuse_init(fuzz_reuse *u);
void fuzz_reuse_free(fuzz_reuse *u);

/* The case `data` decodes to (fuzz_decode), in *out; false only when memory
 * runs out. Every call is followed by fuzz_reuse_done before the next. */
bool fuzz_reuse_decode(fuzz_reuse *u, const uint8_t *data, size_t size, const gm_case **out,
                       gm_error *err);

/* The kept case as a copying donor (fuzz_recipe_build_from), for the
 * mutator between two inputs; false when none is kept. Valid until the next
 * fuzz_reuse_decode. */
bool fuzz_reuse_base(fuzz_reuse *u, fuzz_recipe_donor *d);

/* Takes the last input's records back: the kept case is its header's again
 * (or, when that cannot be done, is dropped). */
void fuzz_reuse_done(fuzz_reuse *u);

#endif
