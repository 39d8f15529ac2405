/* fuzz_undo: the element writes of an input's records, logged so that they
 * can be taken back. The decoder that keeps the case built from the last
 * header (fuzz_reuse.h) applies each input's records to that case and
 * reverts them afterwards, instead of building the case anew.
 */
#ifndef FUZZ_UNDO_H
#define FUZZ_UNDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_array.h"

/* Entries one log holds at most (16 bytes each); past it the log is spoiled:
 * the case cannot be restored and its keeper builds it again. */
#define FUZZ_UNDO_MAX ((size_t)1 << 18)

typedef struct {
    uint64_t where; /* array << 56 | index */
    int64_t old;    /* the element before the write */
} fuzz_undo_entry;

typedef struct {
    fuzz_undo_entry *entries;
    size_t n, cap;
    bool spoiled; /* a write was not logged (the log was full or out of memory) */
} fuzz_undo;

void fuzz_undo_init(fuzz_undo *u);
void fuzz_undo_free(fuzz_undo *u);

/* Logs element i of array a (view v) before it is written. */
void fuzz_undo_note(fuzz_undo *u, fuzz_array a, const fuzz_array_view *v, size_t i);

/* Writes back every logged element, last write first, into the arrays of
 * `views` (indexed by fuzz_array, the views the writes went through), and
 * empties the log. False when the log was spoiled (nothing is written). */
bool fuzz_undo_revert(fuzz_undo *u, const fuzz_array_view *views);

#endif
