#include "fuzz_defer.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double fuzz_defer_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

bool fuzz_defer_init(fuzz_defer *d, size_t cap, gm_error *err) {
    memset(d, 0, sizeof *d);
    d->cases = calloc(cap, sizeof *d->cases);
    d->ptrs = calloc(cap, sizeof *d->ptrs);
    d->models = calloc(cap, sizeof *d->models);
    d->model_of = calloc(cap, sizeof *d->model_of);
    d->rejudge = calloc(cap, sizeof *d->rejudge);
    if (d->cases == NULL || d->ptrs == NULL || d->models == NULL || d->model_of == NULL ||
        d->rejudge == NULL) {
        fuzz_defer_free(d);
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a queue of %zu inputs", cap);
    }
    d->cap = cap;
    for (size_t k = 0; k < cap; k++) {
        gm_case_init(&d->cases[k]);
        gm_outputs_init(&d->models[k]);
        d->ptrs[k] = &d->cases[k];
        d->model_of[k] = &d->models[k];
    }
    return true;
}

void fuzz_defer_clear(fuzz_defer *d) {
    for (size_t k = 0; k < d->n; k++) {
        gm_case_free(&d->cases[k]);
        gm_case_init(&d->cases[k]);
        gm_outputs_free(&d->models[k]);
    }
    d->n = 0;
}

void fuzz_defer_free(fuzz_defer *d) {
    fuzz_defer_clear(d);
    free(d->cases);
    free(d->ptrs);
    free(d->models);
    free(d->model_of);
    free(d->rejudge);
    memset(d, 0, sizeof *d);
}

void fuzz_defer_push(fuzz_defer *d, gm_case *c, gm_outputs *model, bool rejudge) {
    if (d->n == 0) {
        d->oldest = fuzz_defer_now();
    }
    d->cases[d->n] = *c;
    d->models[d->n] = *model;
    d->rejudge[d->n] = rejudge;
    d->n++;
    gm_case_init(c);
    gm_outputs_init(model);
}

bool fuzz_defer_due(const fuzz_defer *d) {
    return d->n >= d->cap || (d->n > 0 && fuzz_defer_now() - d->oldest >= FUZZ_DEFER_MAX_AGE_S);
}
