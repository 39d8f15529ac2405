/* gm_json_reader: the state of one document read and the steps every kind
 * of field uses (gm_json_read.c walks the tables of gm_json_fields.h with
 * them, gm_json_read_arrays.c reads the arrays).
 *
 * The reader knows the path of the value at hand ("case.swa.mapping"),
 * so that every failure says where it is: a push returns the length to
 * restore once the value is read. Sizes are counted against the limits
 * before anything is allocated: the arrays built from the text (and the
 * output buffers that others allocate from the case's shape) are not
 * bounded by the file size. Not public API.
 */
#ifndef GM_JSON_READER_H
#define GM_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"
#include "gm_json.h"
#include "gm_jsonint.h"
#include "gm_jsontext.h"

#define GM_JSON_READER_PATH_MAX 160
/* The objects one document opens: root, case, swa, init, two outputs,
 * first_difference, found, target. */
#define GM_JSON_READER_OBJECTS_MAX 16

typedef struct {
    const gm_limits *lim;
    gm_error *err;
    const gm_case *c;                    /* the document's case, read first */
    size_t elements;                     /* integers counted against max_elements */
    char path[GM_JSON_READER_PATH_MAX];  /* where the reader is, for messages */
    size_t path_len;
    gm_jt_object objects[GM_JSON_READER_OBJECTS_MAX]; /* opened, freed when the read ends */
    size_t n_objects;
} gm_json_reader;

size_t gm_json_reader_push_key(gm_json_reader *rd, const char *key);
size_t gm_json_reader_push_index(gm_json_reader *rd, size_t i);
void gm_json_reader_restore(gm_json_reader *rd, size_t mark);

/* Sets "<path>: <problem>" (the label is added last, by gm_json_parse);
 * returns false. */
bool gm_json_reader_fail(gm_json_reader *rd, gm_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error that names only the problem gets the current path in front. */
bool gm_json_reader_fail_here(gm_json_reader *rd);
bool gm_json_reader_fail_type(gm_json_reader *rd, const char *expected, gm_jt found);
bool gm_json_reader_fail_memory(gm_json_reader *rd, const char *what);

/* a * b, saturating. */
size_t gm_json_reader_mul(size_t a, size_t b);
bool gm_json_reader_count(gm_json_reader *rd, size_t n); /* against max_elements */
bool gm_json_reader_check_bs(gm_json_reader *rd, size_t bs);
bool gm_json_reader_check_width(gm_json_reader *rd, const char *what, size_t width);
/* n + 1 zeroed elements: a present array stays non-NULL even when empty,
 * which is how gm_case tells "given, empty" from "absent". */
void *gm_json_reader_alloc(gm_json_reader *rd, size_t n, size_t size);

/* Finds `key` in `obj` and pushes it on the path (the caller restores).
 * Absent and null both give out->at == NULL, an error when `required`. A
 * key given twice is an error: JSON readers differ on which copy wins. */
bool gm_json_reader_lookup(gm_json_reader *rd, const gm_jt_object *obj, const char *key,
                           bool required, gm_jt *out);
/* The members of `item`, which must be an object; the table lives until
 * the read ends (gm_json_reader_close). NULL on failure. */
const gm_jt_object *gm_json_reader_open(gm_json_reader *rd, gm_jt item);
void gm_json_reader_close(gm_json_reader *rd);

/* An integer: a JSON number (its text ends at `end`) or a decimal string. */
bool gm_json_reader_int_at(gm_jt item, const char *end, gm_jsonint_range range, int64_t *out,
                           gm_error *err);
bool gm_json_reader_int(gm_json_reader *rd, gm_jt item, gm_jsonint_range range, int64_t *out);
/* An unsigned 64-bit counter (found.execs). */
bool gm_json_reader_u64(gm_json_reader *rd, gm_jt item, uint64_t *out);
/* The decoded string `item`; NULL (failed) when memory runs out. */
char *gm_json_reader_string(gm_json_reader *rd, gm_jt item);
/* The length of `item`, which must be an array. */
bool gm_json_reader_array_length(gm_json_reader *rd, gm_jt item, size_t *n);

#endif
