/* gm_json_read_shapes: arrays, buffers and lists (see gm_json_read_shapes.h). */
#include "gm_json_read_shapes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exactly one of i32 / i64 is set; values are checked against `range`
 * before they are stored, so the int32 store never truncates. */
typedef struct {
    gm_jsonint_range range;
    int32_t *i32;
    int64_t *i64;
} gm_json_read_shapes_sink;

static void *gm_json_read_shapes_at(void *object, size_t offset) {
    return (char *)object + offset;
}

/* ---- integer arrays -------------------------------------------------------------- */

/* Reads every element of the array `arr` into sink[offset + i]; the caller
 * made room for them. */
static bool gm_json_read_shapes_elements(gm_json_reader *rd, gm_jt arr, size_t offset,
                                         gm_json_read_shapes_sink sink) {
    size_t i = 0;
    gm_jt_cursor cursor;
    gm_jt it;
    gm_jt_array_begin(arr, &cursor);
    for (; gm_jt_array_next(&cursor, &it); i++) {
        int64_t v;
        if (!gm_json_reader_int_at(it, cursor.at, sink.range, &v, rd->err)) {
            gm_json_reader_push_index(rd, i); /* only on failure: paths cost time */
            return gm_json_reader_fail_here(rd);
        }
        if (sink.i64 != NULL) {
            sink.i64[offset + i] = v;
        } else {
            sink.i32[offset + i] = (int32_t)v;
        }
    }
    return true;
}

static void gm_json_read_shapes_text(int rank, const size_t dims[2], char *buf, size_t size) {
    if (rank == 2) {
        snprintf(buf, size, "[%zu, %zu]", dims[0], dims[1]);
    } else {
        snprintf(buf, size, "[%zu]", dims[0]);
    }
}

/* Every row of a rank-2 `item` has dims[1] elements. */
static bool gm_json_read_shapes_check_rows(gm_json_reader *rd, gm_jt item, const size_t dims[2],
                                           const char *shape) {
    size_t i = 0, n;
    gm_jt_cursor cursor;
    gm_jt row;
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &row); i++) {
        size_t mark = gm_json_reader_push_index(rd, i);
        if (!gm_json_reader_array_length(rd, row, &n)) {
            return false;
        }
        if (n != dims[1]) {
            return gm_json_reader_fail(rd, GM_ERR_FORMAT,
                                       "has %zu elements, expected %zu (shape %s)", n, dims[1],
                                       shape);
        }
        gm_json_reader_restore(rd, mark);
    }
    return true;
}

/* Checks that `item` is a flat array of dims[0] (rank 1) or dims[0] rows of
 * dims[1] (rank 2), before anything is read or allocated. */
static bool gm_json_read_shapes_check(gm_json_reader *rd, gm_jt item, int rank,
                                      const size_t dims[2]) {
    char shape[64];
    size_t n;
    gm_json_read_shapes_text(rank, dims, shape, sizeof shape);
    if (!gm_json_reader_array_length(rd, item, &n)) {
        return false;
    }
    if (n != dims[0]) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "has %zu %s, expected %zu%s (shape %s)", n,
                                   rank == 2 ? "entries" : "elements", dims[0],
                                   rank == 2 ? " rows" : "", shape);
    }
    return rank != 2 || gm_json_read_shapes_check_rows(rd, item, dims, shape);
}

/* Reads an array whose shape gm_json_read_shapes_check accepted, row-major. */
static bool gm_json_read_shapes_read(gm_json_reader *rd, gm_jt item, int rank,
                                     const size_t dims[2], gm_json_read_shapes_sink sink) {
    if (rank == 1) {
        return gm_json_read_shapes_elements(rd, item, 0, sink);
    }
    size_t i = 0;
    gm_jt_cursor cursor;
    gm_jt row;
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &row); i++) {
        size_t mark = gm_json_reader_push_index(rd, i);
        if (!gm_json_read_shapes_elements(rd, row, i * dims[1], sink)) {
            return false;
        }
        gm_json_reader_restore(rd, mark);
    }
    return true;
}

static gm_json_read_shapes_sink gm_json_read_shapes_sink_of(void *data, bool is_int64) {
    return (gm_json_read_shapes_sink){is_int64 ? GM_JSONINT_INT64 : GM_JSONINT_INT32,
                                      is_int64 ? NULL : data, is_int64 ? data : NULL};
}

/* A new int32 or int64 array of the `n` elements of the array `item` (the
 * caller counted them); NULL on failure. */
static void *gm_json_read_shapes_vector(gm_json_reader *rd, gm_jt item, size_t n,
                                        bool is_int64) {
    if (!gm_json_reader_count(rd, n)) {
        return NULL;
    }
    void *data = gm_json_reader_alloc(rd, n, is_int64 ? sizeof(int64_t) : sizeof(int32_t));
    if (data != NULL &&
        !gm_json_read_shapes_elements(rd, item, 0, gm_json_read_shapes_sink_of(data, is_int64))) {
        free(data);
        data = NULL;
    }
    return data;
}

/* The length rule of row `f` for an array of `n` elements. */
static bool gm_json_read_shapes_length(gm_json_reader *rd, const gm_json_field *f, size_t n,
                                       size_t length) {
    if (f->length == GM_JSON_LENGTH_MATCHES && n != length) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "has %zu elements, but %s has %zu "
                                   "(both are [%s])", n, f->length_of, length, f->dim);
    }
    if (f->limit == GM_JSON_LIMIT_BS && !gm_json_reader_check_bs(rd, n)) {
        return false;
    }
    if (n < f->min_length) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "is empty (it needs at least %zu element%s)",
                                   f->min_length, f->min_length == 1 ? "" : "s");
    }
    return true;
}

static bool gm_json_read_shapes_array(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                                      void *object) {
    size_t *length = gm_json_read_shapes_at(object, f->length_at);
    size_t n;
    if (!gm_json_reader_array_length(rd, item, &n) ||
        !gm_json_read_shapes_length(rd, f, n, *length)) {
        return false;
    }
    void *data = gm_json_read_shapes_vector(rd, item, n, f->int64);
    if (data == NULL) {
        return false;
    }
    /* the member is an int32_t * or an int64_t *: stored as its bytes */
    memcpy(gm_json_read_shapes_at(object, f->at), &data, sizeof data);
    if (f->length == GM_JSON_LENGTH_SETS) {
        *length = n;
    }
    return true;
}

/* ---- req_to_token ------------------------------------------------------------------ */

/* The width of the first row: the one all rows must have. */
static bool gm_json_read_shapes_width(gm_json_reader *rd, gm_jt item, size_t *width) {
    size_t mark = gm_json_reader_push_index(rd, 0);
    gm_jt_cursor cursor;
    gm_jt first_row;
    gm_jt_array_begin(item, &cursor);
    gm_jt_array_next(&cursor, &first_row); /* there is one: the caller saw rows */
    if (!gm_json_reader_array_length(rd, first_row, width)) {
        return false;
    }
    gm_json_reader_restore(rd, mark);
    return true;
}

/* pool >= 1 rows of one width W >= max_context_len. */
static bool gm_json_read_shapes_rows(gm_json_reader *rd, gm_jt item, gm_case *c) {
    size_t dims[2];
    if (!gm_json_reader_array_length(rd, item, &dims[0])) {
        return false;
    }
    if (dims[0] == 0) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "has no rows (pool must be >= 1)");
    }
    if (!gm_json_read_shapes_width(rd, item, &dims[1]) ||
        !gm_json_read_shapes_check(rd, item, 2, dims) ||
        !gm_json_reader_check_width(rd, "the row width W", dims[1])) {
        return false;
    }
    if (dims[1] < (size_t)c->max_context_len) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT,
                                   "rows have width %zu, below max_context_len %" PRId32,
                                   dims[1], c->max_context_len);
    }
    size_t n = gm_json_reader_mul(dims[0], dims[1]);
    if (!gm_json_reader_count(rd, n) ||
        (c->req_to_token = gm_json_reader_alloc(rd, n, sizeof(int32_t))) == NULL) {
        return false;
    }
    c->pool = dims[0];
    c->width = dims[1];
    return gm_json_read_shapes_read(rd, item, 2, dims,
                                    gm_json_read_shapes_sink_of(c->req_to_token, false));
}

/* ---- the buffers a case has ---------------------------------------------------------- */

/* Why the case has or lacks the buffer `id`, for messages. */
static const char *gm_json_read_shapes_reason(const gm_case *c, gm_buf_id id) {
    if (id != GM_BUF_SWA_PAGE_TABLE && id != GM_BUF_SWA_OUT_CACHE_LOC) {
        return "every case has it";
    }
    if (!c->has_swa) {
        return "the case has no swa";
    }
    if (id == GM_BUF_SWA_PAGE_TABLE) {
        return c->swa.page_table ? "swa.page_table is true" : "swa.page_table is false";
    }
    return c->swa.has_out_len ? "swa.out_len is given" : "swa.out_len is absent";
}

/* swa_out_cache_loc was counted at swa.out_len. */
bool gm_json_read_shapes_count_outputs(gm_json_reader *rd, const gm_case *c) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        int rank;
        size_t dims[2];
        if (id != GM_BUF_SWA_OUT_CACHE_LOC && gm_case_buf_shape(c, (gm_buf_id)id, &rank, dims) &&
            !gm_json_reader_count(rd, gm_json_reader_mul(dims[0], dims[1]))) {
            return false;
        }
    }
    return true;
}

bool gm_json_read_shapes_difference_buffer(gm_json_reader *rd, const gm_difference *d) {
    int rank;
    size_t dims[2];
    if (gm_case_buf_shape(rd->c, d->buf, &rank, dims)) {
        return true;
    }
    gm_json_reader_push_key(rd, "buffer");
    return gm_json_reader_fail(rd, GM_ERR_FORMAT, "the case has no %s buffer (%s)",
                               gm_buf_name(d->buf), gm_json_read_shapes_reason(rd->c, d->buf));
}

/* Buffer `id` of an outputs object: present exactly when the case has it. */
static bool gm_json_read_shapes_buffer(gm_json_reader *rd, gm_jt item, gm_buf_id id,
                                       gm_outputs *o) {
    int rank;
    size_t dims[2];
    bool has = gm_case_buf_shape(rd->c, id, &rank, dims);
    if (!has && item.at != NULL) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "must be null: the case has no %s buffer "
                                   "(%s)", gm_buf_name(id), gm_json_read_shapes_reason(rd->c, id));
    }
    if (has && item.at == NULL) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "is missing or null, but the case has a "
                                   "%s buffer (%s)", gm_buf_name(id),
                                   gm_json_read_shapes_reason(rd->c, id));
    }
    if (!has) {
        return true;
    }
    if (!gm_json_read_shapes_check(rd, item, rank, dims)) {
        return false;
    }
    if (!gm_outputs_alloc_buf(o, rd->c, id, rd->err)) {
        return gm_json_reader_fail_here(rd);
    }
    gm_json_read_shapes_sink sink = gm_json_read_shapes_sink_of(o->buf[id].data,
                                                                o->buf[id].is_int64);
    sink.range = gm_buf_is_int64(id) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    return gm_json_read_shapes_read(rd, item, rank, dims, sink);
}

/* ---- init ------------------------------------------------------------------------------ */

/* A fill for a buffer the case lacks is checked, then ignored: 37 of the
 * 250 conformance vectors carry such fills, and a buffer that does not
 * exist has no prior contents to set. */
static bool gm_json_read_shapes_fill(gm_json_reader *rd, gm_jt item, gm_jsonint_range range,
                                     bool has, gm_init *init) {
    int64_t fill;
    if (!gm_json_reader_int(rd, item, range, &fill)) {
        return false;
    }
    if (has) {
        init->kind = GM_INIT_FILL;
        init->fill = fill;
    }
    return true;
}

/* One init value: an integer fill, or an array of the buffer's shape. */
static bool gm_json_read_shapes_init_value(gm_json_reader *rd, gm_jt item, const gm_case *c,
                                           gm_buf_id id, gm_init *init) {
    int rank;
    size_t dims[2];
    bool has = gm_case_buf_shape(c, id, &rank, dims);
    gm_jsonint_range range = gm_buf_is_int64(id) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    if (gm_jt_type_of(item) == GM_JT_NUMBER || gm_jt_type_of(item) == GM_JT_STRING) {
        return gm_json_read_shapes_fill(rd, item, range, has, init);
    }
    if (!has) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT,
                                   "the case has no %s buffer (%s), so it takes no init array",
                                   gm_buf_name(id), gm_json_read_shapes_reason(c, id));
    }
    if (gm_jt_type_of(item) != GM_JT_ARRAY) {
        return gm_json_reader_fail_type(rd, "an integer fill or an array of the buffer's shape",
                                        item);
    }
    size_t n = gm_json_reader_mul(dims[0], dims[1]);
    if (!gm_json_read_shapes_check(rd, item, rank, dims) || !gm_json_reader_count(rd, n) ||
        (init->values = gm_json_reader_alloc(rd, n, sizeof(int64_t))) == NULL) {
        return false;
    }
    init->kind = GM_INIT_ARRAY;
    init->len = n;
    return gm_json_read_shapes_read(rd, item, rank, dims,
                                    (gm_json_read_shapes_sink){range, NULL, init->values});
}

/* The buffer a name (a key, a list entry) names; false with the message. */
static bool gm_json_read_shapes_buf_named(gm_json_reader *rd, char *name, gm_buf_id *id) {
    char quoted[64];
    if (name == NULL) {
        return false;
    }
    bool known = gm_json_fields_parse_buf(name, id);
    if (!known) {
        gm_jsonint_quote(name, quoted, sizeof quoted);
    }
    free(name);
    return known || gm_json_reader_fail(rd, GM_ERR_FORMAT, "unknown buffer %s (expected "
                                        GM_JSON_FIELDS_BUF_NAMES ")", quoted);
}

static bool gm_json_read_shapes_init_member(gm_json_reader *rd, const gm_jt_member *member,
                                            gm_case *c, unsigned *seen) {
    gm_buf_id id;
    char *key = gm_jt_key_dup(member);
    if (key == NULL) {
        return gm_json_reader_fail_memory(rd, "a key");
    }
    if (!gm_json_read_shapes_buf_named(rd, key, &id)) {
        return false;
    }
    size_t mark = gm_json_reader_push_key(rd, gm_buf_name(id));
    if (*seen & (1u << id)) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "the key appears more than once");
    }
    *seen |= 1u << id;
    /* null: the default, like an absent key */
    if (gm_jt_type_of(member->value) != GM_JT_NULL &&
        !gm_json_read_shapes_init_value(rd, member->value, c, id, &c->init[id])) {
        return false;
    }
    gm_json_reader_restore(rd, mark);
    return true;
}

static bool gm_json_read_shapes_init(gm_json_reader *rd, gm_jt item, gm_case *c) {
    const gm_jt_object *members = gm_json_reader_open(rd, item);
    unsigned seen = 0;
    if (members == NULL) {
        return false;
    }
    for (size_t i = 0; i < members->n; i++) {
        if (!gm_json_read_shapes_init_member(rd, &members->members[i], c, &seen)) {
            return false;
        }
    }
    return true;
}

/* ---- lists ------------------------------------------------------------------------------ */

/* "buffers": distinct buffer names, as a bit set. */
static bool gm_json_read_shapes_buffer_set(gm_json_reader *rd, gm_jt item, unsigned *mask) {
    size_t n, i = 0, mark = rd->path_len;
    gm_jt_cursor cursor;
    gm_jt it;
    if (!gm_json_reader_array_length(rd, item, &n)) {
        return false;
    }
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &it); i++) {
        gm_buf_id id;
        gm_json_reader_push_index(rd, i);
        if (gm_jt_type_of(it) != GM_JT_STRING) {
            return gm_json_reader_fail_type(rd, "a buffer name", it);
        }
        if (!gm_json_read_shapes_buf_named(rd, gm_json_reader_string(rd, it), &id)) {
            return false;
        }
        if (*mask & (1u << id)) {
            return gm_json_reader_fail(rd, GM_ERR_FORMAT, "%s is listed twice", gm_buf_name(id));
        }
        *mask |= 1u << id;
        gm_json_reader_restore(rd, mark);
    }
    return true;
}

/* A list of strings (classes), each called `what` in messages. */
static bool gm_json_read_shapes_strings(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                                        void *object) {
    size_t n, mark = rd->path_len;
    char ***list = gm_json_read_shapes_at(object, f->at);
    size_t *count = gm_json_read_shapes_at(object, f->length_at);
    gm_jt_cursor cursor;
    gm_jt it;
    if (!gm_json_reader_array_length(rd, item, &n) ||
        (*list = gm_json_reader_alloc(rd, n, sizeof(char *))) == NULL) {
        return false;
    }
    gm_jt_array_begin(item, &cursor);
    while (gm_jt_array_next(&cursor, &it)) {
        gm_json_reader_push_index(rd, *count);
        if (gm_jt_type_of(it) != GM_JT_STRING) {
            return gm_json_reader_fail_type(rd, f->what, it);
        }
        if (((*list)[*count] = gm_json_reader_string(rd, it)) == NULL) {
            return false;
        }
        (*count)++;
        gm_json_reader_restore(rd, mark);
    }
    return true;
}

/* first_difference.index: one in-bounds entry per dimension of the buffer. */
static bool gm_json_read_shapes_index(gm_json_reader *rd, gm_jt item, gm_difference *d) {
    int rank;
    size_t dims[2], n, k = 0, mark = rd->path_len;
    gm_jt_cursor cursor;
    gm_jt it;
    gm_case_buf_shape(rd->c, d->buf, &rank, dims); /* the buffer rule saw it */
    if (!gm_json_reader_array_length(rd, item, &n)) {
        return false;
    }
    if (n != (size_t)rank) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT,
                                   "has %zu entries, but the buffer has rank %d", n, rank);
    }
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &it); k++) {
        int64_t v;
        gm_json_reader_push_index(rd, k);
        if (!gm_json_reader_int(rd, it, gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v)) {
            return false;
        }
        if ((uint64_t)v >= dims[k]) {
            return gm_json_reader_fail(rd, GM_ERR_FORMAT, "%" PRId64 " is outside the buffer "
                                       "(dimension %zu)", v, dims[k]);
        }
        d->index[k] = (size_t)v;
        gm_json_reader_restore(rd, mark);
    }
    d->rank = rank;
    return true;
}

/* ---- rows ---------------------------------------------------------------------------------- */

bool gm_json_read_shapes_field(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                               void *object) {
    if (f->kind == GM_JSON_BUFFER) {
        return gm_json_read_shapes_buffer(rd, item, f->buf, object);
    }
    if (item.at == NULL) {
        return true;
    }
    switch (f->kind) {
    case GM_JSON_ARRAY: return gm_json_read_shapes_array(rd, f, item, object);
    case GM_JSON_ROWS: return gm_json_read_shapes_rows(rd, item, object);
    case GM_JSON_INIT: return gm_json_read_shapes_init(rd, item, object);
    case GM_JSON_BUFFER_SET:
        return gm_json_read_shapes_buffer_set(rd, item, gm_json_read_shapes_at(object, f->at));
    case GM_JSON_STRINGS: return gm_json_read_shapes_strings(rd, f, item, object);
    case GM_JSON_INDEX: return gm_json_read_shapes_index(rd, item, object);
    default: break;
    }
    return gm_json_reader_fail(rd, GM_ERR_USAGE, "field kind %d is not an array", (int)f->kind);
}
