/* gm_jsonint: integers in the gmfuzz JSON formats (CASE_FORMAT.md, "Integers").
 *
 * cJSON keeps numbers as doubles, which hold every integer only up to 2^53.
 * So an integer is written as a JSON number when |v| <= 2^53 and as a
 * decimal string beyond, and a reader accepts both. Reading is strict: a
 * number must be finite, integral and within 2^53 (a larger one has already
 * lost its low bits in cJSON's double); a string must match -?[0-9]+
 * exactly; then the value must lie in the field's range.
 *
 * Error messages hold only the problem ("1.5 is not an integer"); the JSON
 * reader prefixes the field path ("swa.mapping[17]"), which only it knows.
 */
#ifndef GM_JSONINT_H
#define GM_JSONINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "gm_error.h"

/* 2^53: the largest magnitude written as a JSON number. */
#define GM_JSONINT_EXACT_MAX ((int64_t)1 << 53)

/* The range a field accepts: its dtype's range, and optionally a stricter
 * minimum of its own (page_size >= 1). The two are reported differently:
 * "out of range for int32 [..]" versus "below the minimum 1". */
typedef struct {
    const char *dtype; /* "int32", "int64": names the range in messages */
    int64_t lo, hi;    /* the dtype's range */
    int64_t min;       /* the field's minimum, lo when it has none */
} gm_jsonint_range;

#define GM_JSONINT_INT32 ((gm_jsonint_range){"int32", INT32_MIN, INT32_MAX, INT32_MIN})
#define GM_JSONINT_INT64 ((gm_jsonint_range){"int64", INT64_MIN, INT64_MAX, INT64_MIN})

/* `dtype` narrowed to values >= min. */
gm_jsonint_range gm_jsonint_at_least(gm_jsonint_range dtype, int64_t min);

/* Reads `item` (a JSON number or a decimal string) as an integer in `range`. */
bool gm_jsonint_read(const cJSON *item, gm_jsonint_range range, int64_t *out, gm_error *err);

/* The same reads on values that are not cJSON nodes (gm_jsontext): a
 * number's double, a number's text (-?[0-9]{1,15} read exactly, any other
 * through strtod, as cJSON does), or a decoded string. */
bool gm_jsonint_read_double(double d, gm_jsonint_range range, int64_t *out, gm_error *err);
bool gm_jsonint_read_number_text(const char *text, size_t len, gm_jsonint_range range,
                                 int64_t *out, gm_error *err);
bool gm_jsonint_read_string(const char *s, gm_jsonint_range range, int64_t *out, gm_error *err);
bool gm_jsonint_read_u64_string(const char *s, uint64_t *out, gm_error *err);

/* Reads `item` as an unsigned 64-bit integer (counters such as execs). */
bool gm_jsonint_read_u64(const cJSON *item, uint64_t *out, gm_error *err);

/* Parses a whole string as -?[0-9]+ into an int64. False when the text is
 * not a decimal integer (*overflow false) or its value is outside int64
 * (*overflow true). */
bool gm_jsonint_parse_decimal(const char *text, int64_t *out, bool *overflow);

/* A JSON number with exact integer text when |v| <= 2^53, else a decimal
 * string. The number is a cJSON raw node: cJSON's own number printing
 * would write 1e+15 for 10^15, which other readers take for a float. */
cJSON *gm_jsonint_create(int64_t v);
cJSON *gm_jsonint_create_u64(uint64_t v);

/* Writes `s` for an error message: quoted, non-printable bytes escaped and
 * long strings cut (hostile input must not flood or garble a message). */
void gm_jsonint_quote(const char *s, char *buf, size_t size);
/* The same for `len` bytes that may hold NUL (quoted as \x00). */
void gm_jsonint_quote_bytes(const char *s, size_t len, char *buf, size_t size);

/* What kind of JSON value `item` is, for messages: "null", "a string", ... */
const char *gm_jsonint_type_name(const cJSON *item);

#endif
