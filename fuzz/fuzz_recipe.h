/* fuzz_recipe: the parameters that the fixed header of a fuzzer input
 * gives (sizes, optional parts, one generator per array), and how a case is
 * built from them. The decoder builds the case from the recipe and then
 * applies the input's records (explicit element values) on top; the
 * encoder picks a recipe close to a case and writes records for the rest.
 *
 * Every element function below is a pure function of the recipe and the
 * element's position, so that the encoder can evaluate a candidate
 * generator without building anything.
 */
#ifndef FUZZ_RECIPE_H
#define FUZZ_RECIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_array.h"
#include "fuzz_value.h"
#include "gm_case.h"
#include "gm_error.h"

/* Limits of the decoder's case space (and what the encoder accepts). They
 * keep one execution cheap while leaving the large cases reachable: a
 * budget of elements rather than a cap on each size, so that a tall case
 * (bs up to 65,536) has few page-table columns and a wide one (up to
 * 16,384 pages) few rows; the reference and the checked CPU model cost
 * O(elements). */
#define FUZZ_BS_MAX 65536u                /* the JSON reader's default max_bs */
#define FUZZ_PAGES_MAX 16384u             /* max_num_pages = ceil(max_context_len / P) */
#define FUZZ_MCL_MAX ((size_t)1 << 18)    /* 16,384 pages of 16 tokens */
#define FUZZ_WIDTH_MAX (FUZZ_MCL_MAX + 256u)
#define FUZZ_POOL_MAX 65536u
#define FUZZ_TOKENS_MAX ((size_t)1 << 19) /* pool * width */
/* bs * max_num_pages, per page table: 65,536 rows of one page, 16,384
 * pages in four rows. A cell costs about 100 ns in the instrumented
 * target (reference, kernel, oracle, classifier): the budget stays
 * where it was (docs/FUZZING.md, Measurements). */
#define FUZZ_CELLS_MAX ((size_t)1 << 16)
#define FUZZ_MAPPING_MAX ((size_t)1 << 19)
#define FUZZ_OUT_MAX ((size_t)1 << 14)    /* out_len, and len(out_cache_loc) */
/* max_seq_pages overrides: the JSON reader's default page-table width
 * limit (GM_LIMIT_DEFAULT_WIDTH), so that every decoded case can be saved
 * and read back; far past any page-table width here anyway. */
#define FUZZ_MAX_SEQ_PAGES_MAX ((size_t)1 << 20)

typedef enum {
    FUZZ_GEN_CONST,  /* a */
    FUZZ_GEN_AFFINE, /* a + b * i, wrapping */
    FUZZ_GEN_RANDOM, /* uniform in [min(a, b), max(a, b)], hashed from (seed, i) */
    FUZZ_GEN_MODULO, /* (a + b * i) mod m, m fixed per array (the pool for rows, ...) */
} fuzz_gen_kind;

typedef struct {
    fuzz_gen_kind kind;
    uint8_t seed; /* 0..63 */
    int64_t a, b;
} fuzz_gen;

/* seq_lens_cpu relative to the generated seq_lens. */
typedef enum {
    FUZZ_CPU_ABSENT,
    FUZZ_CPU_EQUAL, /* a copy */
    FUZZ_CPU_LAG,   /* seq_lens[i] - (a + b * i): the host copy lags */
    FUZZ_CPU_OWN,   /* its own generator */
} fuzz_cpu_kind;

typedef enum {
    FUZZ_TOK_AFFINE, /* a + b * row + c * col */
    FUZZ_TOK_PAGED,  /* a + P * page(row, col / P) + col % P, pages hashed from the seed */
    FUZZ_TOK_CONST,  /* a */
    FUZZ_TOK_RANDOM, /* uniform in [min(a, b), max(a, b)] */
} fuzz_tok_kind;

typedef struct {
    fuzz_tok_kind kind;
    uint8_t seed;
    int64_t a, b, c;
} fuzz_tok_gen;

typedef struct {
    gm_mode mode;
    int32_t page_size, max_context_len;
    size_t bs, width, pool;
    bool confined;    /* indices pulled back into range (fuzz_recipe_confine_*) */
    size_t pad_rows;  /* trailing cuda-graph padding rows: req_pool_indices 0, seq_lens 1 */

    bool has_swa, swa_page_table, keep_last; /* keep_last: mapping's last element not forced to -1 */
    size_t mapping_len;
    bool has_out_len, has_out_loc;
    size_t out_len, n_out;
    bool has_max_seq_pages;
    int32_t max_seq_pages;
    int32_t step_id, draft_tokens, q_stride;

    fuzz_gen rpi, seq;
    fuzz_cpu_kind cpu_kind;
    fuzz_gen cpu;
    bool has_qlens;
    fuzz_gen qlens;
    fuzz_tok_gen tok;
    fuzz_gen mapping, loc;
    gm_init_kind init_kind[GM_BUF_COUNT];
    fuzz_gen init[GM_BUF_COUNT]; /* GM_INIT_FILL: the fill is init[id].a */
} fuzz_recipe;

/* ceil(max_context_len / page_size). */
size_t fuzz_recipe_max_num_pages(const fuzz_recipe *r);
void fuzz_recipe_ctx(const fuzz_recipe *r, fuzz_value_ctx *ctx);

/* Element functions (values before any record). */
int64_t fuzz_gen_value(const fuzz_gen *g, uint64_t salt, uint64_t modulus, size_t i);
int64_t fuzz_recipe_rpi(const fuzz_recipe *r, size_t i);
int64_t fuzz_recipe_seq(const fuzz_recipe *r, size_t i);
int64_t fuzz_recipe_cpu(const fuzz_recipe *r, size_t i);
int32_t fuzz_recipe_qlen(const fuzz_recipe *r, size_t i);
int32_t fuzz_recipe_token(const fuzz_recipe *r, size_t row, size_t col);
/* A whole row of req_to_token (width elements), as fast as it gets. */
void fuzz_recipe_token_row(const fuzz_recipe *r, size_t row, int32_t *out);
int64_t fuzz_recipe_mapping(const fuzz_recipe *r, size_t t);
int64_t fuzz_recipe_loc(const fuzz_recipe *r, size_t t);
int64_t fuzz_recipe_init(const fuzz_recipe *r, gm_buf_id id, size_t k);

/* Elements [first, first + n) of a 1-D array (not req_to_token: see
 * fuzz_recipe_token_row) as the recipe generates them, in bulk; the same
 * values as the element functions above. */
void fuzz_recipe_values(const fuzz_recipe *r, fuzz_array a, size_t first, size_t n, int64_t *out);

/* Builds the case the recipe describes; false only when memory runs out. */
bool fuzz_recipe_build(const fuzz_recipe *r, gm_case *c, gm_error *err);
/* A case built before, from `recipe`, with no element changed since: the
 * arrays it has that the new recipe builds the same (every recipe field the
 * array's generator reads is equal) are moved out of it, or copied, not
 * built again. */
typedef struct {
    const fuzz_recipe *recipe;
    gm_case *c; /* moved: the arrays taken are NULL afterwards (gm_case_free it) */
    bool copy;  /* copied: c is left as it is */
} fuzz_recipe_donor;

/* fuzz_recipe_build, taking what it can from `d` (NULL: none). The case is
 * the same either way. */
bool fuzz_recipe_build_from(const fuzz_recipe *r, const fuzz_recipe_donor *d, gm_case *c,
                            gm_error *err);

/* Whether the fused kernel stays inside its buffers on `c` as far as its
 * indices go (SPEC section 3): pool rows in range, tokens and locations
 * inside the mapping, max_seq_pages within the page-table width. */
bool fuzz_recipe_in_bounds(const gm_case *c);

/* Confinement, for a confined recipe: what a value becomes when it is
 * stored (generated or set by a record). A pool row is taken modulo the
 * pool; a token (with an SWA page table) or a location (with a
 * swa_out_cache_loc buffer) at or past the mapping's end modulo its
 * length; anything already in range stays as it is, so that confining an
 * in-bounds case changes nothing. max_seq_pages is capped by the header.
 * The result of a confined recipe is always fuzz_recipe_in_bounds. */
int64_t fuzz_recipe_confine_row(const fuzz_recipe *r, int64_t v);
int32_t fuzz_recipe_confine_token(const fuzz_recipe *r, int32_t v);
int64_t fuzz_recipe_confine_loc(const fuzz_recipe *r, int64_t v);

/* Whether `c` is inside the decoder's case space (the limits above, init
 * values in their buffer's dtype); if not, err names what is outside. */
bool fuzz_recipe_fits(const gm_case *c, gm_error *err);

#endif
