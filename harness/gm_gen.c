#include "gm_gen.h"

#include <stdlib.h>

void gm_gen_seed(gm_gen *g, uint64_t seed) { g->state = seed; }

uint64_t gm_gen_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t gm_gen_next(gm_gen *g) { return gm_gen_mix(g->state += 0x9e3779b97f4a7c15ull); }

int64_t gm_gen_range(gm_gen *g, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t r = span == 0 ? gm_gen_next(g) : gm_gen_next(g) % span;
    return (int64_t)((uint64_t)lo + r);
}

static bool gm_gen_chance(gm_gen *g, int percent) { return gm_gen_range(g, 0, 99) < percent; }

/* The batch's size and the page table's width: mostly small, sometimes a
 * batch past one scan block, sometimes a page table past 512 pages. */
static void gm_gen_dimensions(gm_gen *g, gm_case *c) {
    static const int32_t sizes[] = {1, 2, 3, 16, 64, 128};
    int64_t shape = gm_gen_range(g, 0, 99);
    if (shape < 2) { /* big batch */
        c->page_size = sizes[gm_gen_range(g, 3, 5)];
        c->max_context_len = (int32_t)gm_gen_range(g, 1, 256);
        c->bs = (size_t)gm_gen_range(g, 1025, 4500);
    } else if (shape < 4) { /* wide page table */
        c->page_size = (int32_t)gm_gen_range(g, 1, 2);
        c->max_context_len = (int32_t)gm_gen_range(g, 513 * c->page_size, 2100 * c->page_size);
        c->bs = (size_t)gm_gen_range(g, 1, 16);
    } else {
        c->page_size = sizes[gm_gen_range(g, 0, 5)];
        c->max_context_len = (int32_t)gm_gen_range(g, 1, 600);
        c->bs = (size_t)gm_gen_range(g, 1, 64);
    }
    c->mode = (gm_mode)gm_gen_range(g, 0, GM_MODE_COUNT - 1);
    c->width = (size_t)c->max_context_len + (size_t)gm_gen_range(g, 0, 3);
    c->pool = (size_t)gm_gen_range(g, 1, c->bs < 40 ? 40 : 64);
}

static void gm_gen_tokens(gm_gen *g, gm_case *c, int64_t mapping_len) {
    for (size_t k = 0; k < c->pool * c->width; k++) {
        c->req_to_token[k] = gm_gen_chance(g, 5) ? (int32_t)gm_gen_range(g, -3, -1)
                                                 : (int32_t)gm_gen_range(g, 0, mapping_len - 2);
    }
}

static void gm_gen_rows(gm_gen *g, gm_case *c) {
    size_t real = (size_t)gm_gen_range(g, 0, (int64_t)c->bs);
    bool lagging = gm_gen_chance(g, 10);
    for (size_t i = 0; i < c->bs; i++) {
        bool padded = i >= real; /* cuda-graph padding: pool row 0, length 1 */
        c->req_pool_indices[i] = padded ? 0 : gm_gen_range(g, 0, (int64_t)c->pool - 1);
        c->seq_lens[i] = padded ? 1 : gm_gen_range(g, 0, c->max_context_len);
        c->seq_lens_cpu[i] = lagging ? c->seq_lens[i] - gm_gen_range(g, 0, 2) : c->seq_lens[i];
        c->qlens[i] = (int32_t)gm_gen_range(g, 0, 8);
    }
    c->speculative_step_id = (int32_t)gm_gen_range(g, 0, 3);
    c->num_draft_tokens = (int32_t)gm_gen_range(g, 0, 8);
    c->q_stride = (int32_t)gm_gen_range(g, -2, 8);
}

static bool gm_gen_swa(gm_gen *g, gm_case *c, int64_t mapping_len) {
    c->has_swa = true;
    c->swa.mapping_len = (size_t)mapping_len;
    c->swa.mapping = malloc(c->swa.mapping_len * sizeof(int64_t));
    if (c->swa.mapping == NULL) {
        return false;
    }
    for (size_t k = 0; k < c->swa.mapping_len; k++) {
        c->swa.mapping[k] = gm_gen_chance(g, 3) ? ((int64_t)1 << 40) + (int64_t)k
                                                : gm_gen_range(g, 0, 100000);
    }
    c->swa.mapping[c->swa.mapping_len - 1] = gm_gen_chance(g, 80) ? -1 : 7;
    c->swa.page_table = gm_gen_chance(g, 80);
    c->swa.has_out_len = gm_gen_chance(g, 80);
    c->swa.out_len = (size_t)gm_gen_range(g, 0, 1100);
    if (!gm_gen_chance(g, 80)) {
        return true; /* no out_cache_loc this step */
    }
    c->swa.n_out = (size_t)gm_gen_range(g, 0, 1200);
    c->swa.out_cache_loc = malloc((c->swa.n_out + 1) * sizeof(int64_t));
    if (c->swa.out_cache_loc == NULL) {
        return false;
    }
    for (size_t t = 0; t < c->swa.n_out; t++) {
        c->swa.out_cache_loc[t] = gm_gen_chance(g, 10) ? -1 : gm_gen_range(g, 0, mapping_len - 1);
    }
    return true;
}

bool gm_gen_case(gm_gen *g, gm_case *c, gm_error *err) {
    gm_gen_dimensions(g, c);
    int64_t mapping_len = (int64_t)(c->pool * c->width) + c->page_size + 1;
    c->req_to_token = malloc(c->pool * c->width * sizeof(int32_t));
    c->req_pool_indices = malloc(c->bs * sizeof(int64_t));
    c->seq_lens = malloc(c->bs * sizeof(int64_t));
    c->seq_lens_cpu = malloc(c->bs * sizeof(int64_t));
    c->qlens = malloc(c->bs * sizeof(int32_t));
    if (!c->req_to_token || !c->req_pool_indices || !c->seq_lens || !c->seq_lens_cpu ||
        !c->qlens) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory generating a case");
    }
    gm_gen_tokens(g, c, mapping_len);
    gm_gen_rows(g, c);
    if (gm_gen_chance(g, 60) && !gm_gen_swa(g, c, mapping_len)) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory generating a case");
    }
    if (gm_gen_chance(g, 30)) {
        c->init[GM_BUF_PAGE_TABLE].kind = GM_INIT_FILL; /* stale contents */
        c->init[GM_BUF_PAGE_TABLE].fill = -7;
    }
    return true;
}
