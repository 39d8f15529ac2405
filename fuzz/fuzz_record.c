#include "fuzz_record.h"

#include <stdbool.h>

#include "fuzz_int.h"
#include "fuzz_recipe.h"

typedef enum { FUZZ_OP_SET, FUZZ_OP_FILL, FUZZ_OP_RUN } fuzz_record_op;

/* The array of each tag slot; the most fruitful arrays appear twice. */
static const fuzz_array fuzz_record_slots[16] = {
    FUZZ_ARRAY_SEQ_LENS,
    FUZZ_ARRAY_SEQ_LENS_CPU,
    FUZZ_ARRAY_REQ_POOL_INDICES,
    FUZZ_ARRAY_QLENS,
    FUZZ_ARRAY_REQ_TO_TOKEN,
    FUZZ_ARRAY_MAPPING,
    FUZZ_ARRAY_OUT_CACHE_LOC,
    FUZZ_ARRAY_INIT + GM_BUF_CACHE_SEQLENS,
    FUZZ_ARRAY_INIT + GM_BUF_CU_SEQLENS_K,
    FUZZ_ARRAY_INIT + GM_BUF_CU_SEQLENS_Q,
    FUZZ_ARRAY_INIT + GM_BUF_PAGE_TABLE,
    FUZZ_ARRAY_INIT + GM_BUF_SWA_PAGE_TABLE,
    FUZZ_ARRAY_INIT + GM_BUF_SWA_OUT_CACHE_LOC,
    FUZZ_ARRAY_REQ_TO_TOKEN,
    FUZZ_ARRAY_SEQ_LENS,
    FUZZ_ARRAY_MAPPING,
};

static fuzz_record_op fuzz_record_op_of(uint8_t tag) {
    unsigned hi = tag >> 4;
    return hi < 11 ? FUZZ_OP_SET : hi < 14 ? FUZZ_OP_FILL : FUZZ_OP_RUN;
}

/* The tag the encoder writes: the first slot of the array. */
static uint8_t fuzz_record_tag(fuzz_array a, fuzz_record_op op) {
    static const uint8_t op_code[3] = {0, 11, 14};
    unsigned slot = 0;
    while (slot < 15 && fuzz_record_slots[slot] != a) {
        slot++;
    }
    return (uint8_t)((op_code[op] << 4) | slot);
}

/* ---- addresses -------------------------------------------------------- */

#define FUZZ_RECORD_RAW_SEL 0xFF
#define FUZZ_RECORD_INDEX_FROM_END 0xE0 /* 0xE0..0xFE: the last 31 elements */
#define FUZZ_RECORD_COL_DIRECT 0x80     /* 0x80..0xEF: columns 0..111 */
#define FUZZ_RECORD_COL_FROM_END 0xF0   /* 0xF0..0xFE: the last 15 columns */

typedef struct {
    uint8_t sel;
    uint64_t raw; /* 4 bytes from the back when sel == 0xFF */
} fuzz_record_sel;

static fuzz_record_sel fuzz_record_read_sel(fuzz_input *in) {
    fuzz_record_sel s = {fuzz_input_byte(in), 0};
    if (s.sel == FUZZ_RECORD_RAW_SEL) {
        s.raw = fuzz_input_raw(in, 4);
    }
    return s;
}

static void fuzz_record_write_sel(fuzz_output *o, uint8_t sel, uint64_t raw) {
    fuzz_output_byte(o, sel);
    if (sel == FUZZ_RECORD_RAW_SEL) {
        fuzz_output_raw(o, raw, 4);
    }
}

/* Index in [0, n), n >= 1. */
static size_t fuzz_record_index(fuzz_record_sel s, size_t n) {
    if (s.sel < FUZZ_RECORD_INDEX_FROM_END) {
        return s.sel % n;
    }
    if (s.sel < FUZZ_RECORD_RAW_SEL) {
        return n - 1 - (size_t)(s.sel - FUZZ_RECORD_INDEX_FROM_END) % n;
    }
    return (size_t)(s.raw % n);
}

/* Column in [0, w), w >= 1: selectors below 0x80 are page starts. */
static size_t fuzz_record_column(fuzz_record_sel s, size_t w, size_t page) {
    if (s.sel < FUZZ_RECORD_COL_DIRECT) {
        return (size_t)(((uint64_t)s.sel * page) % w);
    }
    if (s.sel < FUZZ_RECORD_COL_FROM_END) {
        return (size_t)(s.sel - FUZZ_RECORD_COL_DIRECT) % w;
    }
    if (s.sel < FUZZ_RECORD_RAW_SEL) {
        return w - 1 - (size_t)(s.sel - FUZZ_RECORD_COL_FROM_END) % w;
    }
    return (size_t)(s.raw % w);
}

/* Reads an address; returns its flat index in `v` (meaningful when v). */
static size_t fuzz_record_read_address(fuzz_input *in, fuzz_array a, const fuzz_array_view *v) {
    fuzz_record_sel first = fuzz_record_read_sel(in);
    if (!fuzz_array_two_d(a)) {
        return v != NULL ? fuzz_record_index(first, v->len) : 0;
    }
    fuzz_record_sel col = fuzz_record_read_sel(in);
    if (v == NULL) {
        return 0;
    }
    size_t row = fuzz_record_index(first, v->len / v->row_len);
    return row * v->row_len + fuzz_record_column(col, v->row_len, v->col_page);
}

static void fuzz_record_write_index(fuzz_output *o, size_t i, size_t n) {
    if (i < FUZZ_RECORD_INDEX_FROM_END) {
        fuzz_record_write_sel(o, (uint8_t)i, 0);
    } else if (n - 1 - i < FUZZ_RECORD_RAW_SEL - FUZZ_RECORD_INDEX_FROM_END) {
        fuzz_record_write_sel(o, (uint8_t)(FUZZ_RECORD_INDEX_FROM_END + (n - 1 - i)), 0);
    } else {
        fuzz_record_write_sel(o, FUZZ_RECORD_RAW_SEL, i);
    }
}

static void fuzz_record_write_column(fuzz_output *o, size_t col, size_t w, size_t page) {
    if (col % page == 0 && col / page < FUZZ_RECORD_COL_DIRECT) {
        fuzz_record_write_sel(o, (uint8_t)(col / page), 0);
    } else if (col < FUZZ_RECORD_COL_FROM_END - FUZZ_RECORD_COL_DIRECT) {
        fuzz_record_write_sel(o, (uint8_t)(FUZZ_RECORD_COL_DIRECT + col), 0);
    } else if (w - 1 - col < FUZZ_RECORD_RAW_SEL - FUZZ_RECORD_COL_FROM_END) {
        fuzz_record_write_sel(o, (uint8_t)(FUZZ_RECORD_COL_FROM_END + (w - 1 - col)), 0);
    } else {
        fuzz_record_write_sel(o, FUZZ_RECORD_RAW_SEL, col);
    }
}

static void fuzz_record_write_address(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                                      size_t flat) {
    if (!fuzz_array_two_d(a)) {
        fuzz_record_write_index(o, flat, v->len);
        return;
    }
    fuzz_record_write_index(o, flat / v->row_len, v->len / v->row_len);
    fuzz_record_write_column(o, flat % v->row_len, v->row_len, v->col_page);
}

/* ---- operations ------------------------------------------------------- */

/* Element i of `a` <- x, confined as the recipe says (fuzz_recipe.h). */
static void fuzz_record_store(const fuzz_array_view *v, fuzz_array a, const fuzz_recipe *r,
                              fuzz_undo *undo, size_t i, int64_t x) {
    if (v->value32) {
        x = fuzz_int_low32((uint64_t)x);
    }
    if (a == FUZZ_ARRAY_REQ_POOL_INDICES) {
        x = fuzz_recipe_confine_row(r, x);
    } else if (a == FUZZ_ARRAY_REQ_TO_TOKEN) {
        x = fuzz_recipe_confine_token(r, (int32_t)x);
    } else if (a == FUZZ_ARRAY_OUT_CACHE_LOC) {
        x = fuzz_recipe_confine_loc(r, x);
    }
    if (undo != NULL) {
        fuzz_undo_note(undo, a, v, i);
    }
    fuzz_array_set(v, i, x);
}

static void fuzz_record_set(fuzz_input *in, fuzz_array a, const fuzz_array_view *v,
                            const fuzz_recipe *r, const fuzz_value_ctx *ctx, fuzz_undo *undo) {
    size_t flat = fuzz_record_read_address(in, a, v);
    int64_t value = fuzz_value_read(in, fuzz_array_domain(a), ctx);
    if (v != NULL) {
        fuzz_record_store(v, a, r, undo, flat, value);
    }
}

static void fuzz_record_fill(fuzz_input *in, fuzz_array a, const fuzz_array_view *v,
                             const fuzz_recipe *r, const fuzz_value_ctx *ctx, fuzz_undo *undo,
                             size_t *budget) {
    size_t flat = fuzz_record_read_address(in, a, v);
    uint8_t count_sel = fuzz_input_byte(in);
    uint64_t count = count_sel == FUZZ_RECORD_RAW_SEL ? fuzz_input_raw(in, 4) : count_sel + 1u;
    int64_t value = fuzz_value_read(in, fuzz_array_domain(a), ctx);
    if (v == NULL) {
        return;
    }
    size_t end = v->len;
    if (count_sel < FUZZ_RECORD_FILL_MAX || count_sel == FUZZ_RECORD_RAW_SEL) {
        end = count < v->len - flat ? flat + (size_t)count : v->len;
    } else if (fuzz_array_two_d(a)) {
        end = (flat / v->row_len + 1) * v->row_len; /* to the end of the row */
    }
    for (size_t k = flat; k < end && *budget > 0; k++, (*budget)--) {
        fuzz_record_store(v, a, r, undo, k, value);
    }
}

static void fuzz_record_run(fuzz_input *in, fuzz_array a, const fuzz_array_view *v,
                            const fuzz_recipe *r, const fuzz_value_ctx *ctx, fuzz_undo *undo) {
    static const unsigned widths[4] = {1, 2, 4, 8};
    size_t flat = fuzz_record_read_address(in, a, v);
    uint8_t count_sel = fuzz_input_byte(in);
    uint64_t count = count_sel < FUZZ_RECORD_RAW_SEL ? count_sel + 1u : fuzz_input_raw(in, 4);
    unsigned width = widths[fuzz_input_byte(in) & 3];
    int64_t base = fuzz_value_read(in, fuzz_array_domain(a), ctx);
    /* Every value costs `width` bytes: the loop is bounded by the input. */
    uint64_t affordable = fuzz_input_remaining(in) / width;
    count = count < affordable ? count : affordable;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t offset = fuzz_input_raw(in, width);
        if (v != NULL && flat + k < v->len) {
            fuzz_record_store(v, a, r, undo, flat + (size_t)k, fuzz_int_i64((uint64_t)base + offset));
        }
    }
}

void fuzz_record_target_init(fuzz_record_target *t, const gm_case *c) {
    t->undo = NULL;
    for (int a = 0; a < FUZZ_ARRAY_COUNT; a++) {
        t->present[a] = fuzz_array_view_of(c, (fuzz_array)a, &t->view[a]) && t->view[a].len > 0;
    }
}

void fuzz_record_apply_next(fuzz_input *in, const fuzz_record_target *t, const fuzz_recipe *r,
                            const fuzz_value_ctx *ctx, size_t *fill_budget) {
    uint8_t tag = fuzz_input_byte(in);
    fuzz_array a = fuzz_record_slots[tag & 15];
    const fuzz_array_view *v = t->present[a] ? &t->view[a] : NULL;
    switch (fuzz_record_op_of(tag)) {
    case FUZZ_OP_SET: fuzz_record_set(in, a, v, r, ctx, t->undo); break;
    case FUZZ_OP_FILL: fuzz_record_fill(in, a, v, r, ctx, t->undo, fill_budget); break;
    case FUZZ_OP_RUN: fuzz_record_run(in, a, v, r, ctx, t->undo); break;
    }
}

/* ---- writers ---------------------------------------------------------- */

void fuzz_record_write_set(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                           const fuzz_value_ctx *ctx, size_t flat, int64_t value) {
    fuzz_output_byte(o, fuzz_record_tag(a, FUZZ_OP_SET));
    fuzz_record_write_address(o, a, v, flat);
    fuzz_value_write(o, fuzz_array_domain(a), ctx, value);
}

void fuzz_record_write_fill(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                            const fuzz_value_ctx *ctx, size_t flat, size_t count, int64_t value) {
    fuzz_output_byte(o, fuzz_record_tag(a, FUZZ_OP_FILL));
    fuzz_record_write_address(o, a, v, flat);
    if (count <= FUZZ_RECORD_FILL_MAX) {
        fuzz_output_byte(o, (uint8_t)(count - 1));
    } else {
        fuzz_output_byte(o, FUZZ_RECORD_RAW_SEL);
        fuzz_output_raw(o, count, 4);
    }
    fuzz_value_write(o, fuzz_array_domain(a), ctx, value);
}

void fuzz_record_write_run(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                           const fuzz_value_ctx *ctx, size_t flat, size_t count) {
    static const unsigned widths[4] = {1, 2, 4, 8};
    int64_t lo = fuzz_array_get(v, flat), hi = lo;
    for (size_t k = 1; k < count; k++) {
        int64_t x = fuzz_array_get(v, flat + k);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    unsigned code = span <= 0xFF ? 0 : span <= 0xFFFF ? 1 : span <= 0xFFFFFFFFu ? 2 : 3;
    fuzz_output_byte(o, fuzz_record_tag(a, FUZZ_OP_RUN));
    fuzz_record_write_address(o, a, v, flat);
    if (count <= FUZZ_RECORD_RAW_SEL) {
        fuzz_output_byte(o, (uint8_t)(count - 1));
    } else {
        fuzz_output_byte(o, FUZZ_RECORD_RAW_SEL);
        fuzz_output_raw(o, count, 4);
    }
    fuzz_output_byte(o, (uint8_t)code);
    fuzz_value_write(o, fuzz_array_domain(a), ctx, lo);
    for (size_t k = 0; k < count; k++) {
        fuzz_output_raw(o, (uint64_t)fuzz_array_get(v, flat + k) - (uint64_t)lo, widths[code]);
    }
}
