#include "fuzz_undo.h"

#include <stdlib.h>

void fuzz_undo_init(fuzz_undo *u) {
    u->entries = NULL;
    u->n = u->cap = 0;
    u->spoiled = false;
}

void fuzz_undo_free(fuzz_undo *u) {
    free(u->entries);
    fuzz_undo_init(u);
}

/* Doubles the log's room, up to FUZZ_UNDO_MAX entries. */
static bool fuzz_undo_grow(fuzz_undo *u) {
    size_t cap = u->cap == 0 ? 256 : 2 * u->cap;
    if (cap > FUZZ_UNDO_MAX) {
        return false;
    }
    fuzz_undo_entry *e = realloc(u->entries, cap * sizeof *e);
    if (e == NULL) {
        return false;
    }
    u->entries = e;
    u->cap = cap;
    return true;
}

void fuzz_undo_note(fuzz_undo *u, fuzz_array a, const fuzz_array_view *v, size_t i) {
    if (u->spoiled || (u->n == u->cap && !fuzz_undo_grow(u))) {
        u->spoiled = true;
        return;
    }
    u->entries[u->n].where = (uint64_t)a << 56 | (uint64_t)i;
    u->entries[u->n].old = fuzz_array_get(v, i);
    u->n++;
}

bool fuzz_undo_revert(fuzz_undo *u, const fuzz_array_view *views) {
    bool ok = !u->spoiled;
    for (size_t k = u->n; ok && k-- > 0;) {
        uint64_t where = u->entries[k].where;
        fuzz_array_set(&views[where >> 56], (size_t)(where & (((uint64_t)1 << 56) - 1)),
                       u->entries[k].old);
    }
    u->n = 0;
    u->spoiled = false;
    return ok;
}
