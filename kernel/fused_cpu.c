#include "fused_cpu.h"

#include <stdio.h>
#include <string.h>

#define FUSED_EXTENT_FN static inline
#include "fused_extent.h"

/* `extent` is each buffer's real allocation, taken from `p` once per launch
 * (the launch's buffers and sizes do not change while it runs): the same
 * bound for every access, without a lookup (and a division) per access. */
typedef struct {
    const fused_params *p;
    fused_oob *oob;
    fused_extents extents;
} fused_cpu_ctx;

static void fused_cpu_ctx_init(fused_cpu_ctx *ctx, const fused_params *p, fused_oob *oob) {
    ctx->p = p;
    ctx->oob = oob;
    fused_extents_of(p, &ctx->extents); /* as the checked CUDA kernel's launch does */
}

/* The extent of `buf`; an id outside the enum has none (every access out
 * of bounds), as fused_extent_of says. */
static inline fused_extent fused_cpu_extent(const fused_cpu_ctx *ctx, fused_buf buf) {
    if ((int)buf < 0 || (int)buf >= FUSED_BUF_COUNT) {
        return fused_extent_flat(0, -1);
    }
    return ctx->extents.of[buf];
}

/* Records the first access that may not be performed. */
static void fused_cpu_refuse(fused_cpu_ctx *ctx, fused_buf buf, bool write, int64_t row,
                             int64_t index, int64_t len, int64_t given_width) {
    ctx->oob->hit = true;
    ctx->oob->buf = buf;
    ctx->oob->write = write;
    ctx->oob->row = row;
    ctx->oob->index = index;
    ctx->oob->len = len;
    ctx->oob->given_width = given_width;
}

/* Whether ptr[index] may be accessed. The bound is the buffer's real
 * allocation (fused_extent.h), and `len` (what the semantics say) only
 * where it is smaller; a pointer that is not the buffer's own is out of
 * bounds too. After one out-of-bounds access nothing else is performed. */
static bool fused_cpu_allow(fused_cpu_ctx *ctx, fused_buf buf, bool write, const void *ptr,
                            int64_t index, int64_t len) {
    if (ctx->oob->hit) {
        return false;
    }
    fused_extent e = fused_cpu_extent(ctx, buf);
    bool have = ptr != NULL && ptr == e.base && e.count >= 0;
    int64_t bound = have ? (len < e.count ? len : e.count) : 0;
    if (have && index >= 0 && index < bound) {
        return true;
    }
    fused_cpu_refuse(ctx, buf, write, -1, index, bound, 0);
    return false;
}

/* A cell write is allowed when the row exists, the column is inside the
 * row (a column past the width would land in the next row, or past the
 * buffer, which SPEC section 3 counts as out of bounds), and the row
 * width the semantics address it with is the buffer's own: a write
 * through a wrong width lands in the wrong cell, or past the end. Rows
 * and width are the real allocation's, never the ones passed in. */
static bool fused_cpu_allow_cell(fused_cpu_ctx *ctx, fused_buf buf, const void *ptr,
                                 int64_t row, int64_t col, int64_t width) {
    if (ctx->oob->hit) {
        return false;
    }
    fused_extent e = fused_cpu_extent(ctx, buf);
    bool have = ptr != NULL && ptr == e.base && e.count >= 0;
    if (!have || row < 0 || row >= e.rows) {
        fused_cpu_refuse(ctx, buf, true, -1, row, have ? e.rows : 0, 0);
        return false;
    }
    if (width != e.width || col < 0 || col >= e.width) {
        fused_cpu_refuse(ctx, buf, true, row, col, e.width, width != e.width ? width : 0);
        return false;
    }
    return true;
}

#define FUSED_FN static inline
#define FUSED_CTX fused_cpu_ctx
#define FUSED_P(ctx) ((ctx)->p)
#define FUSED_READ(ctx, buf, ptr, i, len)                                                  \
    (fused_cpu_allow((ctx), (buf), false, (ptr), (i), (len)) ? (int64_t)(ptr)[(i)]          \
                                                             : (int64_t)0)
#define FUSED_WRITE(ctx, buf, ptr, i, len, v)                                              \
    do {                                                                                   \
        if (fused_cpu_allow((ctx), (buf), true, (ptr), (i), (len))) {                      \
            (ptr)[(i)] = (v);                                                              \
        }                                                                                  \
    } while (0)
/* `rows` is the semantics' claim and is not used: the real rows bound. The
 * write goes to row * (real width) + col, which the check made equal. */
#define FUSED_WRITE_CELL(ctx, buf, ptr, row, col, width, rows, v)                          \
    do {                                                                                   \
        (void)(rows);                                                                      \
        if (fused_cpu_allow_cell((ctx), (buf), (ptr), (row), (col), (width))) {            \
            (ptr)[(row) * (width) + (col)] = (v);                                          \
        }                                                                                  \
    } while (0)

#include "fused_program.h"

static void fused_cpu_row_program(fused_cpu_ctx *ctx, int64_t i) {
    int64_t r = fused_row_begin(ctx, i);
    for (int64_t page = 0; page < ctx->p->max_seq_pages && !ctx->oob->hit; page++) {
        fused_row_page(ctx, i, r, page);
    }
}

static void fused_cpu_scan_program(fused_cpu_ctx *ctx) {
    uint32_t k_sum = 0, q_sum = 0;
    for (int64_t k = 0; k < ctx->p->bs && !ctx->oob->hit; k++) {
        k_sum += fused_scan_k_term(ctx, k);
        q_sum += fused_scan_q_term(ctx, k);
        fused_scan_store(ctx, k, k_sum, q_sum);
    }
}

static void fused_cpu_swa_out_program(fused_cpu_ctx *ctx, int64_t program) {
    int64_t begin = program * FUSED_SWA_OUT_BLOCK;
    for (int64_t t = begin; t < begin + FUSED_SWA_OUT_BLOCK && t < ctx->p->out_len; t++) {
        fused_swa_out_slot(ctx, t);
    }
}

bool fused_cpu_run(const fused_params *p, fused_oob *oob) {
    memset(oob, 0, sizeof *oob);
    oob->row = -1;
    fused_cpu_ctx ctx;
    fused_cpu_ctx_init(&ctx, p, oob);
    if (p->bs <= 0) {
        return true; /* the launcher does nothing for an empty batch */
    }
    for (int64_t i = 0; i < p->bs && !oob->hit; i++) {
        fused_cpu_row_program(&ctx, i);
    }
    fused_cpu_scan_program(&ctx);
    for (int64_t prog = 0; prog < fused_swa_out_programs(p) && !oob->hit; prog++) {
        fused_cpu_swa_out_program(&ctx, prog);
    }
    return !oob->hit;
}

void fused_oob_describe(const fused_oob *oob, char *out, size_t size) {
    const char *what = oob->write ? "write" : "read";
    if (oob->row >= 0 && oob->given_width != 0) {
        snprintf(out, size, "%s of %s[%lld][%lld] through a row width of %lld; its rows are %lld wide",
                 what, fused_buf_name(oob->buf), (long long)oob->row, (long long)oob->index,
                 (long long)oob->given_width, (long long)oob->len);
    } else if (oob->row >= 0) {
        snprintf(out, size, "%s of %s[%lld][%lld] past the row width %lld", what,
                 fused_buf_name(oob->buf), (long long)oob->row, (long long)oob->index,
                 (long long)oob->len);
    } else {
        snprintf(out, size, "%s of %s[%lld] outside [0, %lld)", what, fused_buf_name(oob->buf),
                 (long long)oob->index, (long long)oob->len);
    }
}
