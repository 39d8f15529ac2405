/* gm_json_fields: the one description of the gmfuzz documents' fields
 * (docs/FORMATS.md), which the reader (gm_json_read.c), the writer
 * (gm_json_write.c) and the reader's error messages all use.
 *
 * A table lists the members of one JSON object in document order: the
 * order the writer writes them and the reader reads them (so the first
 * problem a reader reports is the first in the file's canonical order).
 * Each row says a member's key, its kind (which fixes its JSON type and
 * its C type), whether it is required, where it is stored (an offset into
 * the object's C struct), its range, its length rule and the limits it
 * counts against. A row of kind GM_JSON_RULE has no key: it is a rule
 * across the rows above it, checked at that point of the read.
 *
 * Not public API: the tables change with the formats.
 */
#ifndef GM_JSON_FIELDS_H
#define GM_JSON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_json.h"

#define GM_JSON_FORMAT_CASE "gmfuzz-case-v1"
#define GM_JSON_FORMAT_VECTOR "gmfuzz-vector-v1"
#define GM_JSON_FORMAT_REPRO "gmfuzz-repro-v1"

typedef enum {
    GM_JSON_FORMAT,     /* the format string .text: always written; read: if given, must match */
    GM_JSON_STRING,     /* char *, NULL when absent */
    GM_JSON_BOOL,       /* bool; absent or null: .fallback */
    GM_JSON_NAME,       /* an enum named by one of .names */
    GM_JSON_I32,        /* int32_t >= .min (when .has_min); absent: the default is kept */
    GM_JSON_COUNT,      /* size_t, an integer >= 0 (written as an unsigned number) */
    GM_JSON_U64,        /* uint64_t counter: a number, or a decimal string up to 2^64 - 1 */
    GM_JSON_ARRAY,      /* int32_t * or int64_t * (.int64), its length at .length_at */
    GM_JSON_OBJECT,     /* a nested object: the rows of .table, its struct at .at */
    GM_JSON_INLINE,     /* no key: the rows of .table, in this object, their struct at .at */
    GM_JSON_ROWS,       /* gm_case.req_to_token: pool >= 1 rows of one width >= max_context_len */
    GM_JSON_INIT,       /* gm_case.init: per buffer name, a fill or an array of its shape */
    GM_JSON_BUFFER,     /* gm_outputs.buf[.buf]: present exactly when the case has it */
    GM_JSON_BUFFER_SET, /* unsigned, bit (1u << id) per buffer: distinct buffer names */
    GM_JSON_STRINGS,    /* char **, its count at .length_at: strings named .what */
    GM_JSON_INDEX,      /* gm_difference.index: one in-bounds entry per dimension of .buf */
    GM_JSON_ELEMENT,    /* int64_t in the dtype of gm_difference.buf */
    GM_JSON_RULE,       /* no key: .rule, across the rows read so far */
} gm_json_kind;

/* How an array's length is checked and stored at .length_at (a size_t). */
typedef enum {
    GM_JSON_LENGTH_SETS,    /* the array sets it */
    GM_JSON_LENGTH_MATCHES, /* the array must have it: the length of .length_of, [.dim] */
} gm_json_length;

/* The reader limit (gm_limits) a row counts against, besides max_elements
 * for every integer array. */
typedef enum {
    GM_JSON_LIMIT_NONE,
    GM_JSON_LIMIT_BS,       /* the array's length: max_bs */
    GM_JSON_LIMIT_WIDTH,    /* the value, .what (a width): max_width */
    GM_JSON_LIMIT_ELEMENTS, /* the value (a buffer's length): max_elements */
} gm_json_limit;

typedef enum {
    GM_JSON_RULE_QLENS_FOR_DRAFT_EXTEND, /* qlens is required in mode draft_extend */
    GM_JSON_RULE_COUNT_OUTPUTS,          /* the output buffers count against max_elements */
    GM_JSON_RULE_CASE_CHECK,             /* gm_case_check: the rules that span fields */
    GM_JSON_RULE_DIFFERENCE_BUFFER,      /* the case has first_difference.buffer */
} gm_json_rule;

/* What the writer does with an optional member that is absent. */
typedef enum {
    GM_JSON_ABSENT_OMIT, /* leaves the key out */
    GM_JSON_ABSENT_NULL, /* writes null */
} gm_json_absent;

/* A closed set of names (modes, statuses, buffers): `expected` lists them
 * for messages. */
typedef struct {
    bool (*parse)(const char *name, void *out);
    const char *(*name)(const void *value);
    const char *expected;
} gm_json_names;

struct gm_json_table;

typedef struct {
    const char *key;
    gm_json_kind kind;
    bool required;
    size_t at;       /* offset of the value in the object's struct */
    size_t given_at; /* GM_JSON_GIVEN: offset + 1 of the bool "was given"; 0: none */
    int64_t min;     /* I32: the minimum, when has_min */
    bool has_min;
    bool fallback;   /* BOOL: the value when absent */
    bool int64;      /* ARRAY: int64_t elements, else int32_t */
    gm_json_length length;
    size_t length_at;      /* ARRAY, STRINGS: offset of the size_t length */
    size_t min_length;     /* ARRAY: below it, "is empty" */
    const char *length_of; /* ARRAY, LENGTH_MATCHES: the field that set the length */
    const char *dim;       /* ARRAY, LENGTH_MATCHES: the dimension's name */
    gm_json_limit limit;
    gm_json_absent absent;
    gm_buf_id buf;         /* BUFFER */
    const char *text;      /* FORMAT */
    const char *what;      /* STRINGS: each element; LIMIT_WIDTH: the value */
    const gm_json_names *names;
    const struct gm_json_table *table;
    gm_json_rule rule;
    /* Optional rows the writer writes although absent-looking (a default
     * of 0 written in the mode that uses it): whether to write. NULL: when
     * given (.given_at, a non-NULL pointer), or always. */
    bool (*written)(const void *object);
} gm_json_field;

typedef struct gm_json_table {
    const char *name; /* for messages and tests: "case", "swa", ... */
    const gm_json_field *fields;
    size_t n;
} gm_json_table;

#define GM_JSON_GIVEN(type, member) (offsetof(type, member) + 1)

/* The documents (over gm_doc, except the case, over gm_case) and their parts. */
extern const gm_json_table gm_json_fields_case;
extern const gm_json_table gm_json_fields_swa;
extern const gm_json_table gm_json_fields_outputs;
extern const gm_json_table gm_json_fields_difference;
extern const gm_json_table gm_json_fields_verdict_counts;
extern const gm_json_table gm_json_fields_verdict;
extern const gm_json_table gm_json_fields_target;
extern const gm_json_table gm_json_fields_found;
extern const gm_json_table gm_json_fields_vector;
extern const gm_json_table gm_json_fields_repro;

/* The three documents a reader tells apart by their "format"; each is
 * read with `table`, into the gm_doc's struct at offset `at`. */
typedef struct {
    const char *format;
    gm_doc_kind kind;
    const gm_json_table *table;
    size_t at;
} gm_json_document;

extern const gm_json_document gm_json_fields_documents[];
extern const size_t gm_json_fields_n_documents;

/* The names of the six buffers, for messages. */
#define GM_JSON_FIELDS_BUF_NAMES                                                            \
    "cache_seqlens, cu_seqlens_k, cu_seqlens_q, page_table, swa_page_table or "           \
    "swa_out_cache_loc"

bool gm_json_fields_parse_buf(const char *name, void *out);

#endif
