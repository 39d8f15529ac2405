#include "fuzz_array.h"

#include "fuzz_int.h"

bool fuzz_array_two_d(fuzz_array a) {
    return a == FUZZ_ARRAY_REQ_TO_TOKEN || a == FUZZ_ARRAY_INIT + GM_BUF_PAGE_TABLE ||
           a == FUZZ_ARRAY_INIT + GM_BUF_SWA_PAGE_TABLE;
}

fuzz_domain fuzz_array_domain(fuzz_array a) {
    switch (a) {
    case FUZZ_ARRAY_SEQ_LENS:
    case FUZZ_ARRAY_SEQ_LENS_CPU: return FUZZ_DOM_SEQ;
    case FUZZ_ARRAY_REQ_POOL_INDICES: return FUZZ_DOM_ROW;
    case FUZZ_ARRAY_QLENS: return FUZZ_DOM_COUNT;
    case FUZZ_ARRAY_REQ_TO_TOKEN: return FUZZ_DOM_TOKEN;
    case FUZZ_ARRAY_MAPPING: return FUZZ_DOM_MAP;
    case FUZZ_ARRAY_OUT_CACHE_LOC: return FUZZ_DOM_LOC;
    default: return FUZZ_DOM_FILL;
    }
}

const char *fuzz_array_name(fuzz_array a) {
    static const char *const names[FUZZ_ARRAY_INIT] = {
        "seq_lens", "seq_lens_cpu", "req_pool_indices", "qlens",
        "req_to_token", "swa.mapping", "swa.out_cache_loc",
    };
    if ((unsigned)a < FUZZ_ARRAY_INIT) {
        return names[a];
    }
    return (unsigned)a < FUZZ_ARRAY_COUNT ? gm_buf_name((gm_buf_id)(a - FUZZ_ARRAY_INIT)) : "?";
}

static bool fuzz_array_set_view(fuzz_array_view *v, void *data, bool storage64, bool value32,
                                size_t len) {
    v->data = data;
    v->storage64 = storage64;
    v->value32 = value32;
    v->len = len;
    v->row_len = len > 0 ? len : 1;
    v->col_page = 1;
    return data != NULL;
}

static bool fuzz_array_view_init(const gm_case *c, gm_buf_id id, fuzz_array_view *v) {
    const gm_init *in = &c->init[id];
    int rank;
    size_t dims[2];
    if (in->kind != GM_INIT_ARRAY || !gm_case_buf_shape(c, id, &rank, dims) ||
        !fuzz_array_set_view(v, in->values, true, !gm_buf_is_int64(id), in->len)) {
        return false;
    }
    if (rank == 2 && dims[1] > 0) {
        v->row_len = dims[1];
    }
    return true;
}

bool fuzz_array_view_of(const gm_case *c, fuzz_array a, fuzz_array_view *v) {
    v->domain = fuzz_array_domain(a);
    switch (a) {
    case FUZZ_ARRAY_SEQ_LENS: return fuzz_array_set_view(v, c->seq_lens, true, false, c->bs);
    case FUZZ_ARRAY_SEQ_LENS_CPU: return fuzz_array_set_view(v, c->seq_lens_cpu, true, false, c->bs);
    case FUZZ_ARRAY_REQ_POOL_INDICES:
        return fuzz_array_set_view(v, c->req_pool_indices, true, false, c->bs);
    case FUZZ_ARRAY_QLENS: return fuzz_array_set_view(v, c->qlens, false, true, c->bs);
    case FUZZ_ARRAY_REQ_TO_TOKEN:
        if (!fuzz_array_set_view(v, c->req_to_token, false, true, c->pool * c->width)) {
            return false;
        }
        v->row_len = c->width;
        v->col_page = (size_t)c->page_size;
        return true;
    case FUZZ_ARRAY_MAPPING:
        return c->has_swa && fuzz_array_set_view(v, c->swa.mapping, true, false, c->swa.mapping_len);
    case FUZZ_ARRAY_OUT_CACHE_LOC:
        return c->has_swa && fuzz_array_set_view(v, c->swa.out_cache_loc, true, false, c->swa.n_out);
    default:
        if ((unsigned)a < FUZZ_ARRAY_COUNT) {
            return fuzz_array_view_init(c, (gm_buf_id)(a - FUZZ_ARRAY_INIT), v);
        }
        return false;
    }
}

int64_t fuzz_array_get(const fuzz_array_view *v, size_t i) {
    return v->storage64 ? ((const int64_t *)v->data)[i] : ((const int32_t *)v->data)[i];
}

void fuzz_array_set(const fuzz_array_view *v, size_t i, int64_t x) {
    if (v->value32) {
        x = fuzz_int_low32((uint64_t)x);
    }
    if (v->storage64) {
        ((int64_t *)v->data)[i] = x;
    } else {
        ((int32_t *)v->data)[i] = (int32_t)x;
    }
}
