#include "fuzz_reuse.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_decode.h"
#include "fuzz_header.h"
#include "fuzz_input.h"

void fuzz_reuse_init(fuzz_reuse *u) {
    memset(u, 0, sizeof *u);
    gm_case_init(&u->c);
    fuzz_undo_init(&u->undo);
}

static void fuzz_reuse_drop(fuzz_reuse *u) {
    if (u->held) {
        gm_case_free(&u->c);
        u->held = false;
    }
}

void fuzz_reuse_free(fuzz_reuse *u) {
    fuzz_reuse_drop(u);
    fuzz_undo_free(&u->undo);
    free(u->key);
    u->key = NULL;
    u->key_cap = 0;
}

/* The header is a function of the bytes it read and nothing else: its
 * front bytes [0, front) and back bytes [back, size) (fuzz_header_read;
 * an input that ran out while the header was read consumed fewer bytes
 * than one that did not, so equal lengths and bytes mean equal headers). */
static bool fuzz_reuse_same_key(const fuzz_reuse *u, const uint8_t *data, size_t size,
                                const fuzz_input *in) {
    size_t front = in->front, back = size - in->back;
    return u->held && front == u->key_front && back == u->key_back &&
           memcmp(u->key, data, front) == 0 && memcmp(u->key + front, data + in->back, back) == 0;
}

static bool fuzz_reuse_keep_key(fuzz_reuse *u, const uint8_t *data, size_t size,
                                const fuzz_input *in) {
    size_t front = in->front, back = size - in->back;
    if (front + back > u->key_cap) {
        uint8_t *k = realloc(u->key, front + back);
        if (k == NULL) {
            return false;
        }
        u->key = k;
        u->key_cap = front + back;
    }
    memcpy(u->key, data, front);
    memcpy(u->key + front, data + in->back, back);
    u->key_front = front;
    u->key_back = back;
    return true;
}

/* The case of recipe r (the header just read), built from the kept one,
 * which is then dropped. */
static bool fuzz_reuse_build(fuzz_reuse *u, const fuzz_recipe *r, const uint8_t *data, size_t size,
                             const fuzz_input *in, gm_error *err) {
    if (!fuzz_reuse_keep_key(u, data, size, in)) {
        fuzz_reuse_drop(u);
        return gm_error_set(err, GM_ERR_MEMORY, "fuzz_reuse: out of memory keeping a header");
    }
    gm_case built;
    const fuzz_recipe_donor donor = {&u->recipe, &u->c, false};
    bool ok = fuzz_recipe_build_from(r, u->held ? &donor : NULL, &built, err);
    fuzz_reuse_drop(u);
    if (!ok) {
        return false;
    }
    u->c = built;
    u->recipe = *r;
    u->held = true;
    fuzz_record_target_init(&u->target, &u->c);
    u->target.undo = &u->undo;
    u->builds++;
    return true;
}

bool fuzz_reuse_decode(fuzz_reuse *u, const uint8_t *data, size_t size, const gm_case **out,
                       gm_error *err) {
    fuzz_input in;
    fuzz_input_init(&in, data, size);
    fuzz_recipe r;
    fuzz_header_read(&in, &r);
    if (fuzz_reuse_same_key(u, data, size, &in)) {
        u->hits++;
    } else if (!fuzz_reuse_build(u, &r, data, size, &in, err)) {
        return false;
    }
    fuzz_decode_records(&in, &u->recipe, &u->target);
    *out = &u->c;
    return true;
}

bool fuzz_reuse_base(fuzz_reuse *u, fuzz_recipe_donor *d) {
    d->recipe = &u->recipe;
    d->c = &u->c;
    d->copy = true;
    return u->held;
}

void fuzz_reuse_done(fuzz_reuse *u) {
    if (u->held && !fuzz_undo_revert(&u->undo, u->target.view)) {
        fuzz_reuse_drop(u); /* some write was not logged: build it again next time */
    }
}
