#include "fuzz_recipe.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_array.h"
#include "fuzz_int.h"
#include "fuzz_rng.h"

/* Stale init arrays that use a modulo generator stay below this. */
#define FUZZ_RECIPE_INIT_MODULUS ((uint64_t)1 << 16)

/* Per-array salts: two arrays with the same random generator differ. */
enum {
    FUZZ_SALT_RPI = 0x11,
    FUZZ_SALT_SEQ = 0x22,
    FUZZ_SALT_CPU = 0x33,
    FUZZ_SALT_QLENS = 0x44,
    FUZZ_SALT_TOKENS = 0x55,
    FUZZ_SALT_MAPPING = 0x66,
    FUZZ_SALT_LOC = 0x77,
    FUZZ_SALT_INIT = 0x88,
};

size_t fuzz_recipe_max_num_pages(const fuzz_recipe *r) {
    size_t p = (size_t)r->page_size;
    return ((size_t)r->max_context_len + p - 1) / p;
}

void fuzz_recipe_ctx(const fuzz_recipe *r, fuzz_value_ctx *ctx) {
    ctx->page_size = r->page_size;
    ctx->max_context_len = r->max_context_len;
    ctx->width = (int64_t)r->width;
    ctx->pool = (int64_t)r->pool;
    ctx->bs = (int64_t)r->bs;
    ctx->max_num_pages = (int64_t)fuzz_recipe_max_num_pages(r);
    ctx->full_size = (int64_t)(r->pool * r->width);
    ctx->mapping_len = r->has_swa ? (int64_t)r->mapping_len : 0;
    ctx->out_len = r->has_swa && r->has_out_len ? (int64_t)r->out_len : 0;
}

/* "Random" elements are a hash of (seed, salt, i): the same element of the
 * same recipe always gets the same value, and the encoder can evaluate any
 * element on its own. The key is computed once per array. */
static uint64_t fuzz_recipe_key(uint8_t seed, uint64_t salt) {
    return fuzz_rng_mix(((uint64_t)seed << 16) ^ salt);
}

static uint64_t fuzz_recipe_hash(uint64_t key, uint64_t i) {
    uint64_t h = (i + key) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}

/* lo + (h scaled into [0, hi - lo]): the high half of h * (span + 1),
 * cheaper than a 64-bit remainder on every element. */
static int64_t fuzz_recipe_uniform(int64_t a, int64_t b, uint64_t h) {
    int64_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX) {
        return fuzz_int_i64(h);
    }
    uint64_t scaled = (uint64_t)(((unsigned __int128)h * (span + 1)) >> 64);
    return fuzz_int_i64((uint64_t)lo + scaled);
}

/* (a + b * i) mod m over the integers (not the wrapped int64), m >= 1:
 * mod(a) + mod(b) * (i mod m), all below 2^40 for the moduli used here
 * (each at most FUZZ_MAPPING_MAX). */
static uint64_t fuzz_recipe_modulo(int64_t a, int64_t b, uint64_t m, uint64_t i) {
    return (fuzz_int_mod(a, m) + fuzz_int_mod(b, m) * (i % m)) % m;
}

int64_t fuzz_gen_value(const fuzz_gen *g, uint64_t salt, uint64_t modulus, size_t i) {
    switch (g->kind) {
    case FUZZ_GEN_CONST: return g->a;
    case FUZZ_GEN_AFFINE: return fuzz_int_affine(g->a, g->b, i);
    case FUZZ_GEN_RANDOM:
        return fuzz_recipe_uniform(g->a, g->b, fuzz_recipe_hash(fuzz_recipe_key(g->seed, salt), i));
    case FUZZ_GEN_MODULO: return (int64_t)fuzz_recipe_modulo(g->a, g->b, modulus ? modulus : 1, i);
    }
    return 0;
}

/* out[i] = fuzz_gen_value(g, salt, modulus, first + i) for i < n,
 * incrementally (one tight loop per kind: this runs on every element of
 * every array). */
static void fuzz_recipe_fill(const fuzz_gen *g, uint64_t salt, uint64_t modulus, size_t first,
                             int64_t *out, size_t n) {
    uint64_t m = modulus ? modulus : 1, key = fuzz_recipe_key(g->seed, salt);
    uint64_t cur = (uint64_t)g->a + (uint64_t)g->b * first, step = (uint64_t)g->b;
    switch (g->kind) {
    case FUZZ_GEN_CONST:
        for (size_t i = 0; i < n; i++) {
            out[i] = g->a;
        }
        break;
    case FUZZ_GEN_AFFINE:
        for (size_t i = 0; i < n; i++, cur += step) {
            out[i] = fuzz_int_i64(cur);
        }
        break;
    case FUZZ_GEN_MODULO:
        cur = fuzz_recipe_modulo(g->a, g->b, m, first);
        step = fuzz_int_mod(g->b, m);
        for (size_t i = 0; i < n; i++) {
            out[i] = (int64_t)cur;
            cur = cur + step >= m ? cur + step - m : cur + step;
        }
        break;
    case FUZZ_GEN_RANDOM:
        for (size_t i = 0; i < n; i++) {
            out[i] = fuzz_recipe_uniform(g->a, g->b, fuzz_recipe_hash(key, first + i));
        }
        break;
    }
}

static bool fuzz_recipe_is_pad(const fuzz_recipe *r, size_t i) { return i + r->pad_rows >= r->bs; }

/* What confinement makes of an index: a pool row modulo the pool; a
 * token or location at or past the mapping's end modulo its length. */
static int64_t fuzz_recipe_confine_slot(int64_t v, size_t mapping_len) {
    return v >= (int64_t)mapping_len ? v % (int64_t)mapping_len : v;
}

/* Tokens are looked up in the mapping only with an SWA page table;
 * locations only when the kernel writes swa_out_cache_loc from them. */
static bool fuzz_recipe_tokens_confined(const fuzz_recipe *r) {
    return r->confined && r->has_swa && r->swa_page_table;
}

static bool fuzz_recipe_locs_confined(const fuzz_recipe *r) {
    return r->confined && r->has_swa && r->has_out_len && r->has_out_loc;
}

int64_t fuzz_recipe_confine_row(const fuzz_recipe *r, int64_t v) {
    return r->confined ? (int64_t)fuzz_int_mod(v, r->pool) : v;
}

int32_t fuzz_recipe_confine_token(const fuzz_recipe *r, int32_t v) {
    return fuzz_recipe_tokens_confined(r) ? (int32_t)fuzz_recipe_confine_slot(v, r->mapping_len) : v;
}

int64_t fuzz_recipe_confine_loc(const fuzz_recipe *r, int64_t v) {
    return fuzz_recipe_locs_confined(r) ? fuzz_recipe_confine_slot(v, r->mapping_len) : v;
}

int64_t fuzz_recipe_rpi(const fuzz_recipe *r, size_t i) {
    if (fuzz_recipe_is_pad(r, i)) {
        return 0;
    }
    return fuzz_recipe_confine_row(r, fuzz_gen_value(&r->rpi, FUZZ_SALT_RPI, r->pool, i));
}

int64_t fuzz_recipe_seq(const fuzz_recipe *r, size_t i) {
    return fuzz_recipe_is_pad(r, i)
               ? 1
               : fuzz_gen_value(&r->seq, FUZZ_SALT_SEQ, (uint64_t)r->max_context_len + 1, i);
}

int64_t fuzz_recipe_cpu(const fuzz_recipe *r, size_t i) {
    switch (r->cpu_kind) {
    case FUZZ_CPU_EQUAL: return fuzz_recipe_seq(r, i);
    case FUZZ_CPU_LAG: return fuzz_int_sub(fuzz_recipe_seq(r, i), fuzz_int_affine(r->cpu.a, r->cpu.b, i));
    case FUZZ_CPU_OWN:
        return fuzz_gen_value(&r->cpu, FUZZ_SALT_CPU, (uint64_t)r->max_context_len + 1, i);
    case FUZZ_CPU_ABSENT: break;
    }
    return 0;
}

int32_t fuzz_recipe_qlen(const fuzz_recipe *r, size_t i) {
    return fuzz_int_low32((uint64_t)fuzz_gen_value(&r->qlens, FUZZ_SALT_QLENS, 5, i));
}

/* The first token of the page that holds column `col` of `row`, for the
 * page-wise generators (the page's other slots follow it, +1 each). */
static uint64_t fuzz_recipe_page_base(const fuzz_recipe *r, uint64_t key, size_t row, size_t col) {
    const fuzz_tok_gen *t = &r->tok;
    uint64_t P = (uint64_t)r->page_size;
    uint64_t page_key = (uint64_t)row * (r->width / P + 1) + col / P;
    uint64_t h = fuzz_recipe_hash(key, page_key);
    if (t->kind == FUZZ_TOK_RANDOM) {
        return (uint64_t)fuzz_recipe_uniform(t->a, t->b, h);
    }
    /* A page allocator's view: each page of a row is some page of the pool. */
    uint64_t pages = (r->pool * r->width) / P;
    return (uint64_t)t->a + (h % (pages ? pages : 1)) * P;
}

static int32_t fuzz_recipe_token_generated(const fuzz_recipe *r, size_t row, size_t col) {
    const fuzz_tok_gen *t = &r->tok;
    switch (t->kind) {
    case FUZZ_TOK_AFFINE:
        return fuzz_int_low32((uint64_t)t->a + (uint64_t)t->b * row + (uint64_t)t->c * col);
    case FUZZ_TOK_CONST: return fuzz_int_low32((uint64_t)t->a);
    case FUZZ_TOK_PAGED:
    case FUZZ_TOK_RANDOM: {
        uint64_t key = fuzz_recipe_key(t->seed, FUZZ_SALT_TOKENS);
        return fuzz_int_low32(fuzz_recipe_page_base(r, key, row, col) + col % (size_t)r->page_size);
    }
    }
    return 0;
}

int32_t fuzz_recipe_token(const fuzz_recipe *r, size_t row, size_t col) {
    return fuzz_recipe_confine_token(r, fuzz_recipe_token_generated(r, row, col));
}

int64_t fuzz_recipe_mapping(const fuzz_recipe *r, size_t t) {
    if (!r->keep_last && t + 1 == r->mapping_len) {
        return -1; /* the convention: the last element is the -1 sentinel */
    }
    uint64_t swa_slots = r->mapping_len / 4;
    return fuzz_gen_value(&r->mapping, FUZZ_SALT_MAPPING, swa_slots ? swa_slots : 1, t);
}

int64_t fuzz_recipe_loc(const fuzz_recipe *r, size_t t) {
    return fuzz_recipe_confine_loc(
        r, fuzz_gen_value(&r->loc, FUZZ_SALT_LOC, r->mapping_len ? r->mapping_len : 1, t));
}

int64_t fuzz_recipe_init(const fuzz_recipe *r, gm_buf_id id, size_t k) {
    int64_t v = 0;
    if (r->init_kind[id] == GM_INIT_FILL) {
        v = r->init[id].a;
    } else if (r->init_kind[id] == GM_INIT_ARRAY) {
        v = fuzz_gen_value(&r->init[id], FUZZ_SALT_INIT + (uint64_t)id, FUZZ_RECIPE_INIT_MODULUS, k);
    }
    return gm_buf_is_int64(id) ? v : fuzz_int_low32((uint64_t)v);
}

/* ---- ranges of 1-D arrays ------------------------------------------------ */

static void fuzz_recipe_values_seq(const fuzz_recipe *r, size_t first, size_t n, int64_t *out) {
    fuzz_recipe_fill(&r->seq, FUZZ_SALT_SEQ, (uint64_t)r->max_context_len + 1, first, out, n);
    for (size_t i = 0; i < n; i++) {
        out[i] = fuzz_recipe_is_pad(r, first + i) ? 1 : out[i];
    }
}

static void fuzz_recipe_values_rpi(const fuzz_recipe *r, size_t first, size_t n, int64_t *out) {
    fuzz_recipe_fill(&r->rpi, FUZZ_SALT_RPI, r->pool, first, out, n);
    for (size_t i = 0; i < n; i++) {
        out[i] = fuzz_recipe_is_pad(r, first + i) ? 0 : fuzz_recipe_confine_row(r, out[i]);
    }
}

static void fuzz_recipe_values_cpu(const fuzz_recipe *r, size_t first, size_t n, int64_t *out) {
    if (r->cpu_kind == FUZZ_CPU_OWN) {
        fuzz_recipe_fill(&r->cpu, FUZZ_SALT_CPU, (uint64_t)r->max_context_len + 1, first, out, n);
        return;
    }
    fuzz_recipe_values_seq(r, first, n, out);
    for (size_t i = 0; r->cpu_kind == FUZZ_CPU_LAG && i < n; i++) {
        out[i] = fuzz_int_sub(out[i], fuzz_int_affine(r->cpu.a, r->cpu.b, first + i));
    }
}

static void fuzz_recipe_values_init(const fuzz_recipe *r, gm_buf_id id, size_t first, size_t n,
                                    int64_t *out) {
    const fuzz_gen fill = {FUZZ_GEN_CONST, 0, r->init_kind[id] == GM_INIT_FILL ? r->init[id].a : 0, 0};
    const fuzz_gen *g = r->init_kind[id] == GM_INIT_ARRAY ? &r->init[id] : &fill;
    fuzz_recipe_fill(g, FUZZ_SALT_INIT + (uint64_t)id, FUZZ_RECIPE_INIT_MODULUS, first, out, n);
    const bool wide = gm_buf_is_int64(id); /* asked once: it is an instrumented call */
    for (size_t k = 0; !wide && k < n; k++) {
        out[k] = fuzz_int_low32((uint64_t)out[k]);
    }
}

void fuzz_recipe_values(const fuzz_recipe *r, fuzz_array a, size_t first, size_t n, int64_t *out) {
    uint64_t swa_slots = r->mapping_len / 4;
    switch (a) {
    case FUZZ_ARRAY_SEQ_LENS: fuzz_recipe_values_seq(r, first, n, out); return;
    case FUZZ_ARRAY_SEQ_LENS_CPU: fuzz_recipe_values_cpu(r, first, n, out); return;
    case FUZZ_ARRAY_REQ_POOL_INDICES: fuzz_recipe_values_rpi(r, first, n, out); return;
    case FUZZ_ARRAY_QLENS:
        fuzz_recipe_fill(&r->qlens, FUZZ_SALT_QLENS, 5, first, out, n);
        for (size_t i = 0; i < n; i++) {
            out[i] = fuzz_int_low32((uint64_t)out[i]);
        }
        return;
    case FUZZ_ARRAY_MAPPING:
        fuzz_recipe_fill(&r->mapping, FUZZ_SALT_MAPPING, swa_slots ? swa_slots : 1, first, out, n);
        if (!r->keep_last && first + n == r->mapping_len && n > 0) {
            out[n - 1] = -1; /* the convention: the last element is the -1 sentinel */
        }
        return;
    case FUZZ_ARRAY_OUT_CACHE_LOC:
        fuzz_recipe_fill(&r->loc, FUZZ_SALT_LOC, r->mapping_len ? r->mapping_len : 1, first, out, n);
        for (size_t i = 0; i < n; i++) {
            out[i] = fuzz_recipe_confine_loc(r, out[i]);
        }
        return;
    default:
        fuzz_recipe_values_init(r, (gm_buf_id)(a - FUZZ_ARRAY_INIT), first, n, out);
        return;
    }
}

/* malloc of n + 1 elements: a present array of length 0 is not NULL. */
static void *fuzz_recipe_alloc(size_t n, size_t size, bool *ok) {
    void *p = *ok ? malloc((n + 1) * size) : NULL;
    if (p == NULL) {
        *ok = false;
    }
    return p;
}

/* ---- what each built array depends on ----------------------------------- */

/* Every input of an array's generator, as integers: equal keys, equal values. */
typedef struct {
    size_t n;
    int64_t v[16];
} fuzz_recipe_array_key;

static void fuzz_recipe_key_add(fuzz_recipe_array_key *k, int64_t v) { k->v[k->n++] = v; }

static void fuzz_recipe_key_gen(fuzz_recipe_array_key *k, const fuzz_gen *g) {
    fuzz_recipe_key_add(k, (int64_t)g->kind);
    fuzz_recipe_key_add(k, (int64_t)g->seed);
    fuzz_recipe_key_add(k, g->a);
    fuzz_recipe_key_add(k, g->b);
}

/* Every recipe field that fuzz_recipe_values (or, for req_to_token,
 * fuzz_recipe_token_row) reads for array `a` of length n: a change to any
 * other field leaves the array's values as they are. Keep this beside the
 * generators: a field they start to read belongs here too. */
static fuzz_recipe_array_key fuzz_recipe_key_of(const fuzz_recipe *r, fuzz_array a, size_t n) {
    fuzz_recipe_array_key k = {0};
    fuzz_recipe_key_add(&k, (int64_t)n);
    switch (a) {
    case FUZZ_ARRAY_SEQ_LENS_CPU:
        fuzz_recipe_key_add(&k, (int64_t)r->cpu_kind);
        fuzz_recipe_key_gen(&k, &r->cpu);
        /* seq_lens_cpu is seq_lens minus a lag, or equal: seq_lens' key too */
        __attribute__((fallthrough));
    case FUZZ_ARRAY_SEQ_LENS:
        fuzz_recipe_key_add(&k, (int64_t)r->bs);
        fuzz_recipe_key_add(&k, (int64_t)r->pad_rows);
        fuzz_recipe_key_add(&k, r->max_context_len);
        fuzz_recipe_key_gen(&k, &r->seq);
        break;
    case FUZZ_ARRAY_REQ_POOL_INDICES:
        fuzz_recipe_key_add(&k, (int64_t)r->bs);
        fuzz_recipe_key_add(&k, (int64_t)r->pad_rows);
        fuzz_recipe_key_add(&k, (int64_t)r->pool);
        fuzz_recipe_key_add(&k, r->confined);
        fuzz_recipe_key_gen(&k, &r->rpi);
        break;
    case FUZZ_ARRAY_QLENS: fuzz_recipe_key_gen(&k, &r->qlens); break;
    case FUZZ_ARRAY_REQ_TO_TOKEN:
        fuzz_recipe_key_add(&k, (int64_t)r->pool);
        fuzz_recipe_key_add(&k, (int64_t)r->width);
        fuzz_recipe_key_add(&k, r->page_size);
        fuzz_recipe_key_add(&k, fuzz_recipe_tokens_confined(r));
        fuzz_recipe_key_add(&k, (int64_t)r->mapping_len);
        fuzz_recipe_key_add(&k, (int64_t)r->tok.kind);
        fuzz_recipe_key_add(&k, (int64_t)r->tok.seed);
        fuzz_recipe_key_add(&k, r->tok.a);
        fuzz_recipe_key_add(&k, r->tok.b);
        fuzz_recipe_key_add(&k, r->tok.c);
        break;
    case FUZZ_ARRAY_MAPPING:
        fuzz_recipe_key_add(&k, (int64_t)r->mapping_len);
        fuzz_recipe_key_add(&k, r->keep_last);
        fuzz_recipe_key_gen(&k, &r->mapping);
        break;
    case FUZZ_ARRAY_OUT_CACHE_LOC:
        fuzz_recipe_key_add(&k, (int64_t)r->mapping_len);
        fuzz_recipe_key_add(&k, fuzz_recipe_locs_confined(r));
        fuzz_recipe_key_gen(&k, &r->loc);
        break;
    default: { /* an init array (built only for GM_INIT_ARRAY) */
        gm_buf_id id = (gm_buf_id)(a - FUZZ_ARRAY_INIT);
        fuzz_recipe_key_add(&k, (int64_t)r->init_kind[id]);
        fuzz_recipe_key_gen(&k, &r->init[id]);
        break;
    }
    }
    return k;
}

/* Whether array `a` of the donor's recipe `dr` (dn elements) holds the values
 * that recipe r gives its n elements. */
static bool fuzz_recipe_same_array(const fuzz_recipe *r, size_t n, const fuzz_recipe *dr, size_t dn,
                                   fuzz_array a) {
    fuzz_recipe_array_key k = fuzz_recipe_key_of(r, a, n), dk = fuzz_recipe_key_of(dr, a, dn);
    return k.n == dk.n && memcmp(k.v, dk.v, k.n * sizeof k.v[0]) == 0;
}

/* The donor's array `given` (dn elements of `elem` bytes) when it is the one
 * r builds for `a`: the donor's own (the caller then clears the donor's
 * field: fuzz_recipe_moves), or a copy of it; NULL otherwise. */
static void *fuzz_recipe_take(const fuzz_recipe *r, size_t n, const fuzz_recipe_donor *d,
                              const void *given, size_t dn, fuzz_array a, size_t elem, bool *ok) {
    if (!*ok || d == NULL || given == NULL || !fuzz_recipe_same_array(r, n, d->recipe, dn, a)) {
        return NULL;
    }
    if (!d->copy) {
        return (void *)given;
    }
    void *p = fuzz_recipe_alloc(n, elem, ok);
    if (p != NULL) {
        memcpy(p, given, n * elem);
    }
    return p;
}

static bool fuzz_recipe_moves(const fuzz_recipe_donor *d) { return d != NULL && !d->copy; }

/* A 1-D int64 array of n elements: the donor's, or built. */
static int64_t *fuzz_recipe_array64(const fuzz_recipe *r, const fuzz_recipe_donor *d, int64_t **field,
                                    size_t dn, fuzz_array a, size_t n, bool *ok) {
    int64_t *p = fuzz_recipe_take(r, n, d, field != NULL ? *field : NULL, dn, a, sizeof *p, ok);
    if (p != NULL) {
        *field = fuzz_recipe_moves(d) ? NULL : *field;
        return p;
    }
    p = fuzz_recipe_alloc(n, sizeof(int64_t), ok);
    if (*ok) {
        fuzz_recipe_values(r, a, 0, n, p);
    }
    return p;
}

static void fuzz_recipe_build_qlens(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                                    bool *ok) {
    const int32_t *given = d != NULL ? d->c->qlens : NULL;
    size_t dn = d != NULL ? d->c->bs : 0;
    c->qlens = fuzz_recipe_take(r, r->bs, d, given, dn, FUZZ_ARRAY_QLENS, sizeof(int32_t), ok);
    if (c->qlens != NULL) {
        d->c->qlens = fuzz_recipe_moves(d) ? NULL : d->c->qlens;
        return;
    }
    c->qlens = fuzz_recipe_alloc(r->bs, sizeof(int32_t), ok);
    int64_t *qlens = fuzz_recipe_alloc(r->bs, sizeof(int64_t), ok);
    if (*ok) {
        fuzz_recipe_values(r, FUZZ_ARRAY_QLENS, 0, r->bs, qlens);
        for (size_t i = 0; i < r->bs; i++) {
            c->qlens[i] = (int32_t)qlens[i]; /* already int32 values */
        }
    }
    free(qlens);
}

static void fuzz_recipe_build_batch(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                                    bool *ok) {
    gm_case *dc = d != NULL ? d->c : NULL;
    size_t dn = dc != NULL ? dc->bs : 0;
    c->req_pool_indices = fuzz_recipe_array64(r, d, dc ? &dc->req_pool_indices : NULL, dn,
                                              FUZZ_ARRAY_REQ_POOL_INDICES, r->bs, ok);
    c->seq_lens = fuzz_recipe_array64(r, d, dc ? &dc->seq_lens : NULL, dn, FUZZ_ARRAY_SEQ_LENS,
                                      r->bs, ok);
    if (r->cpu_kind != FUZZ_CPU_ABSENT) {
        c->seq_lens_cpu = fuzz_recipe_array64(r, d, dc ? &dc->seq_lens_cpu : NULL, dn,
                                              FUZZ_ARRAY_SEQ_LENS_CPU, r->bs, ok);
    }
    if (r->has_qlens && *ok) {
        fuzz_recipe_build_qlens(r, d, c, ok);
    }
}

/* One row of tokens, as fuzz_recipe_token_generated gives them, computed
 * incrementally in 32 bits (only the low 32 bits of the sums are kept). */
static void fuzz_recipe_token_row_generated(const fuzz_recipe *r, size_t row, int32_t *out) {
    const fuzz_tok_gen *t = &r->tok;
    size_t P = (size_t)r->page_size, W = r->width;
    uint32_t v = (uint32_t)((uint64_t)t->a + (uint64_t)t->b * row);
    if (t->kind == FUZZ_TOK_AFFINE || t->kind == FUZZ_TOK_CONST) {
        uint32_t step = t->kind == FUZZ_TOK_AFFINE ? (uint32_t)t->c : 0;
        v = t->kind == FUZZ_TOK_AFFINE ? v : (uint32_t)t->a;
        for (size_t col = 0; col < W; col++, v += step) {
            out[col] = fuzz_int_low32(v);
        }
        return;
    }
    uint64_t key = fuzz_recipe_key(t->seed, FUZZ_SALT_TOKENS);
    for (size_t page = 0; page * P < W; page++) {
        size_t first = page * P, end = W - first < P ? W : first + P;
        v = (uint32_t)fuzz_recipe_page_base(r, key, row, first);
        for (size_t col = first; col < end; col++, v++) {
            out[col] = fuzz_int_low32(v);
        }
    }
}

void fuzz_recipe_token_row(const fuzz_recipe *r, size_t row, int32_t *out) {
    fuzz_recipe_token_row_generated(r, row, out);
    for (size_t col = 0; fuzz_recipe_tokens_confined(r) && col < r->width; col++) {
        out[col] = fuzz_recipe_confine_token(r, out[col]);
    }
}

static void fuzz_recipe_build_tokens(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                                     bool *ok) {
    size_t n = r->pool * r->width;
    const int32_t *given = d != NULL ? d->c->req_to_token : NULL;
    size_t dn = d != NULL ? d->c->pool * d->c->width : 0;
    c->req_to_token =
        fuzz_recipe_take(r, n, d, given, dn, FUZZ_ARRAY_REQ_TO_TOKEN, sizeof(int32_t), ok);
    if (c->req_to_token != NULL) {
        d->c->req_to_token = fuzz_recipe_moves(d) ? NULL : d->c->req_to_token;
        return;
    }
    c->req_to_token = fuzz_recipe_alloc(n, sizeof(int32_t), ok);
    for (size_t row = 0; *ok && row < r->pool; row++) {
        fuzz_recipe_token_row(r, row, c->req_to_token + row * r->width);
    }
}

static void fuzz_recipe_build_swa(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                                  bool *ok) {
    if (!r->has_swa) {
        return;
    }
    gm_swa *s = &c->swa;
    gm_swa *ds = d != NULL && d->c->has_swa ? &d->c->swa : NULL;
    s->page_table = r->swa_page_table;
    s->mapping_len = r->mapping_len;
    s->has_out_len = r->has_out_len;
    s->out_len = r->has_out_len ? r->out_len : 0;
    s->mapping = fuzz_recipe_array64(r, d, ds ? &ds->mapping : NULL, ds ? ds->mapping_len : 0,
                                     FUZZ_ARRAY_MAPPING, r->mapping_len, ok);
    if (r->has_out_loc) {
        s->n_out = r->n_out;
        s->out_cache_loc = fuzz_recipe_array64(r, d, ds ? &ds->out_cache_loc : NULL,
                                               ds ? ds->n_out : 0, FUZZ_ARRAY_OUT_CACHE_LOC,
                                               r->n_out, ok);
    }
}

static void fuzz_recipe_build_init(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                                   bool *ok) {
    for (int id = 0; id < GM_BUF_COUNT && *ok; id++) {
        int rank;
        size_t dims[2];
        gm_init *in = &c->init[id];
        if (r->init_kind[id] == GM_INIT_DEFAULT || !gm_case_buf_shape(c, (gm_buf_id)id, &rank, dims)) {
            continue; /* a buffer the case lacks keeps its default */
        }
        in->kind = r->init_kind[id];
        if (in->kind == GM_INIT_FILL) {
            in->fill = fuzz_recipe_init(r, (gm_buf_id)id, 0);
            continue;
        }
        in->len = dims[0] * dims[1];
        gm_init *din = d != NULL && d->c->init[id].kind == GM_INIT_ARRAY ? &d->c->init[id] : NULL;
        in->values = fuzz_recipe_array64(r, d, din ? &din->values : NULL, din ? din->len : 0,
                                         FUZZ_ARRAY_INIT + id, in->len, ok);
    }
}

bool fuzz_recipe_build(const fuzz_recipe *r, gm_case *c, gm_error *err) {
    return fuzz_recipe_build_from(r, NULL, c, err);
}

bool fuzz_recipe_build_from(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                            gm_error *err) {
    bool ok = true;
    gm_case_init(c);
    c->mode = r->mode;
    c->page_size = r->page_size;
    c->max_context_len = r->max_context_len;
    c->pool = r->pool;
    c->width = r->width;
    c->bs = r->bs;
    c->speculative_step_id = r->step_id;
    c->num_draft_tokens = r->draft_tokens;
    c->q_stride = r->q_stride;
    c->has_max_seq_pages = r->has_max_seq_pages;
    c->max_seq_pages = r->has_max_seq_pages ? r->max_seq_pages : 0;
    c->has_swa = r->has_swa;
    fuzz_recipe_build_batch(r, d, c, &ok);
    fuzz_recipe_build_tokens(r, d, c, &ok);
    fuzz_recipe_build_swa(r, d, c, &ok);
    fuzz_recipe_build_init(r, d, c, &ok);
    if (!ok) {
        gm_case_free(c);
        return gm_error_set(err, GM_ERR_MEMORY, "fuzz_decode: out of memory building a case");
    }
    return true;
}

static bool fuzz_recipe_checks_tokens(const gm_case *c) { return c->has_swa && c->swa.page_table; }

static bool fuzz_recipe_checks_locs(const gm_case *c) {
    return c->has_swa && c->swa.has_out_len && c->swa.out_cache_loc != NULL;
}

bool fuzz_recipe_in_bounds(const gm_case *c) {
    for (size_t i = 0; i < c->bs; i++) {
        if (c->req_pool_indices[i] < 0 || (uint64_t)c->req_pool_indices[i] >= c->pool) {
            return false;
        }
    }
    if (c->has_max_seq_pages && (size_t)c->max_seq_pages > gm_case_max_num_pages(c)) {
        return false;
    }
    int64_t len = (int64_t)c->swa.mapping_len;
    for (size_t k = 0; fuzz_recipe_checks_tokens(c) && k < c->pool * c->width; k++) {
        if (c->req_to_token[k] >= len) {
            return false;
        }
    }
    for (size_t t = 0; fuzz_recipe_checks_locs(c) && t < c->swa.n_out; t++) {
        if (c->swa.out_cache_loc[t] >= len) {
            return false;
        }
    }
    return true;
}

static bool fuzz_recipe_fits_init(const gm_case *c, gm_error *err) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        const gm_init *in = &c->init[id];
        if (gm_buf_is_int64((gm_buf_id)id) || in->kind == GM_INIT_DEFAULT) {
            continue;
        }
        size_t n = in->kind == GM_INIT_FILL ? 1 : in->len;
        for (size_t k = 0; k < n; k++) {
            int64_t v = in->kind == GM_INIT_FILL ? in->fill : in->values[k];
            if (v < INT32_MIN || v > INT32_MAX) {
                return gm_error_set(err, GM_ERR_LIMIT, "init.%s[%zu]: %lld is outside int32",
                                    gm_buf_name((gm_buf_id)id), k, (long long)v);
            }
        }
    }
    return true;
}

bool fuzz_recipe_fits(const gm_case *c, gm_error *err) {
    if (!gm_case_check(c, err)) {
        return false;
    }
    struct {
        const char *what;
        size_t value, limit;
    } limits[] = {
        {"bs", c->bs, FUZZ_BS_MAX},
        {"max_context_len", (size_t)c->max_context_len, FUZZ_MCL_MAX},
        {"req_to_token width", c->width, FUZZ_WIDTH_MAX},
        {"req_to_token rows", c->pool, FUZZ_POOL_MAX},
        {"req_to_token elements", c->pool * c->width, FUZZ_TOKENS_MAX},
        {"max_num_pages", gm_case_max_num_pages(c), FUZZ_PAGES_MAX},
        {"page-table cells (bs * max_num_pages)", c->bs * gm_case_max_num_pages(c), FUZZ_CELLS_MAX},
        {"swa.mapping length", c->has_swa ? c->swa.mapping_len : 0, FUZZ_MAPPING_MAX},
        {"swa.out_len", c->has_swa && c->swa.has_out_len ? c->swa.out_len : 0, FUZZ_OUT_MAX},
        {"swa.out_cache_loc length", c->has_swa && c->swa.out_cache_loc ? c->swa.n_out : 0,
         FUZZ_OUT_MAX},
        {"max_seq_pages", c->has_max_seq_pages ? (size_t)c->max_seq_pages : 0,
         FUZZ_MAX_SEQ_PAGES_MAX},
    };
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        if (limits[k].value > limits[k].limit) {
            return gm_error_set(err, GM_ERR_LIMIT,
                                "%s: %zu is over the fuzz decoder's limit %zu", limits[k].what,
                                limits[k].value, limits[k].limit);
        }
    }
    return fuzz_recipe_fits_init(c, err);
}
