#include "fuzz_sched.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm_hash.h"

static double fuzz_sched_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the budget ------------------------------------------------------------ */

bool fuzz_sched_budget_init(fuzz_sched_budget *b, const fuzz_sched_config *cfg, gm_error *err) {
    memset(b, 0, sizeof *b);
    b->cfg = *cfg;
    b->cap = 2 * FUZZ_SCHED_KNOWN_MAX;
    b->keys = calloc(b->cap, sizeof *b->keys);
    b->started = fuzz_sched_now();
    return b->keys != NULL ||
           gm_error_set(err, GM_ERR_MEMORY, "out of memory for the classes a job meets");
}

void fuzz_sched_budget_free(fuzz_sched_budget *b) {
    free(b->keys);
    memset(b, 0, sizeof *b);
}

/* Where `key` is, or would go. */
static size_t fuzz_sched_budget_slot(const fuzz_sched_budget *b, uint64_t key) {
    size_t at = (size_t)(key % b->cap);
    while (b->keys[at] != 0 && b->keys[at] != key) {
        at = (at + 1) % b->cap;
    }
    return at;
}

static uint64_t fuzz_sched_budget_stored(uint64_t key) { return key != 0 ? key : 1; }

bool fuzz_sched_budget_knows(const fuzz_sched_budget *b, uint64_t key) {
    key = fuzz_sched_budget_stored(key);
    return b->keys[fuzz_sched_budget_slot(b, key)] == key;
}

bool fuzz_sched_budget_allows(const fuzz_sched_budget *b) {
    if (b->n_keys >= FUZZ_SCHED_KNOWN_MAX) {
        return false;
    }
    if (b->added < b->cfg.warm) {
        return true;
    }
    if (b->cfg.by_runs) { /* the (added - warm + 1)-th class past the warm ones */
        return (double)(b->added - b->cfg.warm + 1) <= b->cfg.budget * (double)b->runs;
    }
    return b->jit_s <= b->cfg.budget * (fuzz_sched_now() - b->started);
}

bool fuzz_sched_budget_add(fuzz_sched_budget *b, uint64_t key) {
    key = fuzz_sched_budget_stored(key);
    size_t at = fuzz_sched_budget_slot(b, key);
    if (b->keys[at] == key) {
        return true;
    }
    if (b->n_keys >= FUZZ_SCHED_KNOWN_MAX) {
        return false;
    }
    b->keys[at] = key;
    b->n_keys++;
    b->added++;
    return true;
}

void fuzz_sched_budget_charge(fuzz_sched_budget *b, double jit_s) {
    b->jit_s += jit_s > 0 ? jit_s : 0;
}

/* ---- the sweep's stream ------------------------------------------------------ */

/* Where a job's new classes come from, in turn: anywhere half of the time,
 * the input space's corners between. Job k starts k places in, so that the
 * jobs of a campaign reach every corner with their first classes. */
static const harness_gen_region fuzz_sched_regions[] = {
    HARNESS_GEN_ANYWHERE, HARNESS_GEN_BIG_BATCH,  HARNESS_GEN_ANYWHERE, HARNESS_GEN_SWA_TILES,
    HARNESS_GEN_ANYWHERE, HARNESS_GEN_WIDE_TABLE, HARNESS_GEN_ANYWHERE, HARNESS_GEN_ONE_ROW,
};
#define FUZZ_SCHED_N_REGIONS (sizeof fuzz_sched_regions / sizeof fuzz_sched_regions[0])

static harness_gen_region fuzz_sched_region(unsigned job, uint64_t index) {
    return fuzz_sched_regions[(job + index) % FUZZ_SCHED_N_REGIONS];
}

/* A region's share of harness_gen_case's draws, in percent (harness_gen.c:
 * 3 % big batches, 3 % wide tables; one row and SWA tiles inside the rest). */
static unsigned fuzz_sched_weight(harness_gen_region r) {
    static const unsigned weights[HARNESS_GEN_REGIONS] = {
        [HARNESS_GEN_ANYWHERE] = 100, [HARNESS_GEN_BIG_BATCH] = 3, [HARNESS_GEN_WIDE_TABLE] = 3,
        [HARNESS_GEN_ONE_ROW] = 2,    [HARNESS_GEN_SWA_TILES] = 5,
    };
    return weights[r];
}

/* A class met before, picked with its region's weight. */
static size_t fuzz_sched_pick_known(fuzz_sched *s) {
    uint64_t total = 0;
    for (size_t k = 0; k < s->n_known; k++) {
        total += fuzz_sched_weight(s->known[k].region);
    }
    int64_t r = harness_gen_range(&s->cases, 0, (int64_t)total - 1);
    for (size_t k = 0; k < s->n_known; k++) {
        r -= fuzz_sched_weight(s->known[k].region);
        if (r < 0) {
            return k;
        }
    }
    return s->n_known - 1;
}

/* The two streams of job `job`: the runs' cases and the new classes'. */
static void fuzz_sched_seed(harness_gen *cases, harness_gen *classes, uint64_t seed) {
    harness_gen_seed(cases, seed * GM_HASH_GOLDEN);
    harness_gen_seed(classes, gm_hash_mix(seed * GM_HASH_GOLDEN + 1));
}

bool fuzz_sched_init(fuzz_sched *s, const fuzz_sched_config *cfg, uint64_t seed, unsigned job,
                     gm_error *err) {
    memset(s, 0, sizeof *s);
    s->job = job;
    fuzz_sched_seed(&s->cases, &s->classes, seed);
    return fuzz_sched_budget_init(&s->budget, cfg, err);
}

void fuzz_sched_free(fuzz_sched *s) {
    for (size_t k = 0; k < s->n_known; k++) {
        gm_case_free(&s->known[k].like);
    }
    free(s->known);
    fuzz_sched_budget_free(&s->budget);
    memset(s, 0, sizeof *s);
}

/* The index of a known class with `key`, or n_known. */
static size_t fuzz_sched_find(const fuzz_sched *s, uint64_t key) {
    for (size_t k = 0; k < s->n_known; k++) {
        if (harness_class_key_of(&s->known[k].like) == key) {
            return k;
        }
    }
    return s->n_known;
}

/* A new class from the class stream; false when memory ran out. */
static bool fuzz_sched_take_new(fuzz_sched *s, gm_error *err) {
    gm_case c;
    gm_case_init(&c);
    harness_gen_region region = fuzz_sched_region(s->job, s->new_draws++);
    if (!harness_gen_case_in(&s->classes, region, &c, err)) {
        gm_case_free(&c);
        return false;
    }
    uint64_t key = harness_class_key_of(&c);
    size_t at = fuzz_sched_budget_knows(&s->budget, key) ? fuzz_sched_find(s, key) : s->n_known;
    fuzz_sched_budget_add(&s->budget, key);
    if (at < s->n_known) { /* drawn again: a run of a class met before */
        gm_case_free(&c);
        s->current = at;
        return true;
    }
    if (s->n_known == s->cap_known) {
        size_t cap = s->cap_known ? 2 * s->cap_known : 64;
        fuzz_sched_class *grown = realloc(s->known, cap * sizeof *grown);
        if (grown == NULL) {
            gm_case_free(&c);
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory for the classes met");
        }
        s->known = grown;
        s->cap_known = cap;
    }
    s->known[s->n_known] = (fuzz_sched_class){.like = c, .region = region};
    s->current = s->n_known++;
    return true;
}

/* The next run: a new class when the budget allows, else one met before. */
static bool fuzz_sched_next_run(fuzz_sched *s, gm_error *err) {
    if (s->n_known == 0 || fuzz_sched_budget_allows(&s->budget)) {
        if (!fuzz_sched_take_new(s, err)) {
            return false;
        }
    } else {
        s->current = fuzz_sched_pick_known(s);
        s->revisits++;
    }
    s->budget.runs++;
    uint64_t share = s->budget.cfg.run * fuzz_sched_weight(s->known[s->current].region) / 100;
    s->left = share > 0 ? share : 1;
    return true;
}

/* About the bytes of a case's tensors on the wire: req_to_token, the
 * mapping, the page tables, the rows, the SWA write locations. */
static size_t fuzz_sched_case_bytes(const gm_case *c) {
    size_t pages = gm_case_max_num_pages(c);
    return 4 * c->pool * c->width + 8 * c->swa.mapping_len + 8 * c->bs * pages +
           32 * c->bs + 16 * (c->swa.out_len + c->swa.n_out);
}

bool fuzz_sched_draw(fuzz_sched *s, gm_case *cases, size_t n, size_t *drawn, gm_error *err) {
    *drawn = 0;
    if (s->left == 0 && !fuzz_sched_next_run(s, err)) {
        return false;
    }
    fuzz_sched_class *k = &s->known[s->current];
    n = n < s->left ? n : (size_t)s->left;
    size_t bytes = 0;
    for (size_t i = 0; i < n && bytes < FUZZ_SCHED_BATCH_BYTES; i++) {
        gm_case_free(&cases[i]);
        gm_case_init(&cases[i]);
        bool first = k->cases == 0 && i == 0; /* the class's first case is its own */
        bool ok = first ? gm_case_copy(&cases[i], &k->like, err)
                        : harness_gen_case_in_class(&s->cases, &k->like, &cases[i], err);
        if (!ok) {
            return false;
        }
        bytes += fuzz_sched_case_bytes(&cases[i]);
        *drawn = i + 1;
    }
    k->cases += *drawn;
    s->left -= *drawn;
    return true;
}

void fuzz_sched_charge(fuzz_sched *s, double jit_s) {
    fuzz_sched_budget_charge(&s->budget, jit_s);
    if (s->n_known > 0) {
        s->known[s->current].jit_s += jit_s;
    }
}

bool fuzz_sched_new_class(uint64_t seed, unsigned job, uint64_t index, gm_case *c, gm_error *err) {
    harness_gen cases, classes;
    fuzz_sched_seed(&cases, &classes, seed);
    for (uint64_t j = 0; j <= index; j++) {
        gm_case_free(c);
        gm_case_init(c);
        if (!harness_gen_case_in(&classes, fuzz_sched_region(job, j), c, err)) {
            return false;
        }
    }
    return true;
}
