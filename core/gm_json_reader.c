/* gm_json_reader: paths, failures, limits, members and integers of one
 * document read (see gm_json_reader.h). */
#include "gm_json_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- paths and failures ------------------------------------------------------- */

static void gm_json_reader_append(gm_json_reader *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void gm_json_reader_append(gm_json_reader *rd, const char *fmt, ...) {
    size_t room = sizeof rd->path - rd->path_len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(rd->path + rd->path_len, room, fmt, ap);
    va_end(ap);
    if (n > 0) {
        rd->path_len += (size_t)n < room ? (size_t)n : room - 1;
    }
}

size_t gm_json_reader_push_key(gm_json_reader *rd, const char *key) {
    size_t mark = rd->path_len;
    gm_json_reader_append(rd, "%s%s", mark == 0 ? "" : ".", key);
    return mark;
}

size_t gm_json_reader_push_index(gm_json_reader *rd, size_t i) {
    size_t mark = rd->path_len;
    gm_json_reader_append(rd, "[%zu]", i);
    return mark;
}

void gm_json_reader_restore(gm_json_reader *rd, size_t mark) {
    rd->path_len = mark;
    rd->path[mark] = '\0';
}

bool gm_json_reader_fail(gm_json_reader *rd, gm_error_code code, const char *fmt, ...) {
    char problem[GM_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    if (rd->path_len == 0) {
        return gm_error_set(rd->err, code, "%s", problem);
    }
    return gm_error_set(rd->err, code, "%s: %s", rd->path, problem);
}

bool gm_json_reader_fail_here(gm_json_reader *rd) {
    if (rd->path_len > 0) {
        gm_error_prefix(rd->err, rd->path);
    }
    return false;
}

bool gm_json_reader_fail_type(gm_json_reader *rd, const char *expected, gm_jt found) {
    return gm_json_reader_fail(rd, GM_ERR_FORMAT, "expected %s, found %s", expected,
                               gm_jt_type_name(found));
}

bool gm_json_reader_fail_memory(gm_json_reader *rd, const char *what) {
    return gm_json_reader_fail(rd, GM_ERR_MEMORY, "out of memory for %s", what);
}

/* ---- limits ---------------------------------------------------------------------- */

size_t gm_json_reader_mul(size_t a, size_t b) {
    return (a != 0 && b > SIZE_MAX / a) ? SIZE_MAX : a * b;
}

bool gm_json_reader_count(gm_json_reader *rd, size_t n) {
    size_t max = rd->lim->max_elements;
    size_t total = n > SIZE_MAX - rd->elements ? SIZE_MAX : rd->elements + n;
    if (total > max) {
        return gm_json_reader_fail(rd, GM_ERR_LIMIT,
                                   "the case holds %zu integers or more, over the limit "
                                   "max_elements = %zu (raise it with --max-elements)",
                                   total, max);
    }
    rd->elements = total;
    return true;
}

bool gm_json_reader_check_bs(gm_json_reader *rd, size_t bs) {
    if (bs > rd->lim->max_bs) {
        return gm_json_reader_fail(rd, GM_ERR_LIMIT,
                                   "bs = %zu is over the limit max_bs = %zu (raise it with "
                                   "--max-bs)", bs, rd->lim->max_bs);
    }
    return true;
}

bool gm_json_reader_check_width(gm_json_reader *rd, const char *what, size_t width) {
    if (width > rd->lim->max_width) {
        return gm_json_reader_fail(rd, GM_ERR_LIMIT,
                                   "%s %zu is over the limit max_width = %zu (raise it with "
                                   "--max-width)", what, width, rd->lim->max_width);
    }
    return true;
}

void *gm_json_reader_alloc(gm_json_reader *rd, size_t n, size_t size) {
    /* n + 1 must not wrap (limits raised to SIZE_MAX let counts saturate). */
    void *p = n < SIZE_MAX / size ? calloc(n + 1, size) : NULL;
    if (p == NULL) {
        gm_json_reader_fail(rd, GM_ERR_MEMORY, "out of memory for %zu elements", n);
    }
    return p;
}

/* ---- members ----------------------------------------------------------------------- */

bool gm_json_reader_lookup(gm_json_reader *rd, const gm_jt_object *obj, const char *key,
                           bool required, gm_jt *out) {
    const gm_jt_member *found = NULL;
    gm_json_reader_push_key(rd, key);
    out->at = NULL;
    for (size_t i = 0; i < obj->n; i++) {
        if (!gm_jt_key_is(&obj->members[i], key)) {
            continue;
        }
        if (found != NULL) {
            return gm_json_reader_fail(rd, GM_ERR_FORMAT, "the key appears more than once");
        }
        found = &obj->members[i];
    }
    if (found != NULL && gm_jt_type_of(found->value) != GM_JT_NULL) {
        *out = found->value;
    } else if (required) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "%s",
                                   found == NULL ? "is missing" : "is null, but it is required");
    }
    return true;
}

const gm_jt_object *gm_json_reader_open(gm_json_reader *rd, gm_jt item) {
    if (gm_jt_type_of(item) != GM_JT_OBJECT) {
        gm_json_reader_fail_type(rd, "an object", item);
        return NULL;
    }
    if (rd->n_objects == GM_JSON_READER_OBJECTS_MAX) {
        gm_json_reader_fail(rd, GM_ERR_FORMAT, "more than %d objects opened",
                            GM_JSON_READER_OBJECTS_MAX);
        return NULL;
    }
    gm_jt_object *o = &rd->objects[rd->n_objects];
    if (!gm_jt_object_open(item, o)) {
        gm_json_reader_fail_memory(rd, "the members of an object");
        return NULL;
    }
    rd->n_objects++;
    return o;
}

void gm_json_reader_close(gm_json_reader *rd) {
    for (size_t i = 0; i < rd->n_objects; i++) {
        gm_jt_object_free(&rd->objects[i]);
    }
    rd->n_objects = 0;
}

/* ---- values ------------------------------------------------------------------------- */

bool gm_json_reader_int_at(gm_jt item, const char *end, gm_jsonint_range range, int64_t *out,
                           gm_error *err) {
    gm_jt_type type = gm_jt_type_of(item);
    if (type == GM_JT_NUMBER) {
        return gm_jsonint_read_number_text(item.at, (size_t)(end - item.at), range, out, err);
    }
    if (type != GM_JT_STRING) {
        return gm_error_set(err, GM_ERR_FORMAT, "expected an integer, found %s",
                            gm_jt_type_name(item));
    }
    char *text = gm_jt_string_dup(item);
    if (text == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a string");
    }
    bool ok = gm_jsonint_read_string(text, range, out, err);
    free(text);
    return ok;
}

bool gm_json_reader_int(gm_json_reader *rd, gm_jt item, gm_jsonint_range range, int64_t *out) {
    return gm_json_reader_int_at(item, gm_jt_end(item), range, out, rd->err) ||
           gm_json_reader_fail_here(rd);
}

bool gm_json_reader_u64(gm_json_reader *rd, gm_jt item, uint64_t *out) {
    if (gm_jt_type_of(item) == GM_JT_STRING) {
        char *text = gm_jt_string_dup(item);
        bool ok = text != NULL ? gm_jsonint_read_u64_string(text, out, rd->err)
                               : gm_json_reader_fail_memory(rd, "a string");
        free(text);
        return ok || gm_json_reader_fail_here(rd);
    }
    int64_t v;
    if (!gm_json_reader_int(rd, item, gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v)) {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

char *gm_json_reader_string(gm_json_reader *rd, gm_jt item) {
    char *copy = gm_jt_string_dup(item);
    if (copy == NULL) {
        gm_json_reader_fail_memory(rd, "a string");
    }
    return copy;
}

bool gm_json_reader_array_length(gm_json_reader *rd, gm_jt item, size_t *n) {
    *n = 0;
    if (gm_jt_type_of(item) != GM_JT_ARRAY) {
        return gm_json_reader_fail_type(rd, "an array", item);
    }
    *n = gm_jt_array_count(item);
    return true;
}
