#include "gm_jsonint.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest string excerpt quoted in a message: enough to recognise it. */
#define GM_JSONINT_QUOTE_CHARS 40

gm_jsonint_range gm_jsonint_at_least(gm_jsonint_range dtype, int64_t min) {
    dtype.min = min > dtype.lo ? min : dtype.lo;
    return dtype;
}

const char *gm_jsonint_type_name(const cJSON *item) {
    if (item == NULL) {
        return "nothing";
    }
    switch (item->type & 0xff) {
    case cJSON_NULL: return "null";
    case cJSON_True: return "true";
    case cJSON_False: return "false";
    case cJSON_Number: return "a number";
    case cJSON_String: return "a string";
    case cJSON_Array: return "an array";
    case cJSON_Object: return "an object";
    default: return "an invalid value";
    }
}

/* Appends `piece` to buf at *pos when it fits whole, keeping room for the
 * terminator (a cut escape like "\x4" would mislead). */
static void quote_put(char *buf, size_t size, size_t *pos, const char *piece) {
    size_t n = strlen(piece);
    if (*pos + n < size) {
        memcpy(buf + *pos, piece, n);
        *pos += n;
    }
    buf[*pos] = '\0';
}

void gm_jsonint_quote(const char *s, char *buf, size_t size) {
    gm_jsonint_quote_bytes(s, strlen(s), buf, size);
}

void gm_jsonint_quote_bytes(const char *s, size_t len, char *buf, size_t size) {
    if (size == 0) {
        return;
    }
    size_t pos = 0;
    buf[0] = '\0';
    quote_put(buf, size, &pos, "\"");
    for (size_t i = 0; i < len; i++) {
        if (i == GM_JSONINT_QUOTE_CHARS) {
            quote_put(buf, size, &pos, "...");
            break;
        }
        unsigned char c = (unsigned char)s[i];
        char piece[8];
        if (c == '"' || c == '\\') {
            snprintf(piece, sizeof piece, "\\%c", c);
        } else if (c < 0x20 || c > 0x7e) {
            snprintf(piece, sizeof piece, "\\x%02x", c);
        } else {
            snprintf(piece, sizeof piece, "%c", c);
        }
        quote_put(buf, size, &pos, piece);
    }
    quote_put(buf, size, &pos, "\"");
}

/* The shortest text that reads back as `d`, for messages about numbers
 * that are not integers (1.5, not 1.50000000000000000). */
static void describe_double(double d, char *buf, size_t size) {
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(buf, size, "%.*g", precision, d);
        if (strtod(buf, NULL) == d) {
            return;
        }
    }
}

/* The message is built only on failure: describe_double costs more than
 * the whole read of a good number. */
static bool read_number(double d, int64_t *out, gm_error *err) {
    char text[40];
    if (isnan(d) || isinf(d)) {
        return gm_error_set(err, GM_ERR_FORMAT,
                            "a number too large for a double is not an integer");
    }
    /* Every double beyond 2^53 is integral, but the parser already rounded
     * it: the value in the file may not be the one we hold. */
    if (d > (double)GM_JSONINT_EXACT_MAX || d < -(double)GM_JSONINT_EXACT_MAX) {
        describe_double(d, text, sizeof text);
        return gm_error_set(err, GM_ERR_FORMAT,
                            "%s is beyond 2^53 and not exact as a JSON number "
                            "(write it as a decimal string)", text);
    }
    int64_t v = (int64_t)d;
    if ((double)v != d) {
        describe_double(d, text, sizeof text);
        return gm_error_set(err, GM_ERR_FORMAT, "%s is not an integer", text);
    }
    *out = v;
    return true;
}

/* Parses [0-9]+ into a magnitude; *overflow when it exceeds `limit`. */
static bool parse_magnitude(const char *digits, uint64_t limit, uint64_t *mag, bool *overflow) {
    *overflow = false;
    *mag = 0;
    if (*digits == '\0') {
        return false;
    }
    for (const char *p = digits; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            *overflow = false;
            return false;
        }
        uint64_t digit = (uint64_t)(*p - '0');
        if (*overflow || *mag > (limit - digit) / 10) {
            *overflow = true; /* keep scanning: "1e99999..." is still not decimal */
            continue;
        }
        *mag = *mag * 10 + digit;
    }
    return !*overflow;
}

bool gm_jsonint_parse_decimal(const char *text, int64_t *out, bool *overflow) {
    bool negative = text[0] == '-';
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t mag;
    if (!parse_magnitude(text + (negative ? 1 : 0), limit, &mag, overflow)) {
        return false;
    }
    if (!negative) {
        *out = (int64_t)mag;
    } else if (mag == (uint64_t)INT64_MAX + 1) {
        *out = INT64_MIN; /* -(int64_t)mag would overflow */
    } else {
        *out = -(int64_t)mag;
    }
    return true;
}

static bool range_error(const char *text, gm_jsonint_range range, gm_error *err) {
    return gm_error_set(err, GM_ERR_FORMAT, "%s is out of range for %s [%" PRId64 ", %" PRId64 "]",
                        text, range.dtype, range.lo, range.hi);
}

static bool read_string(const char *s, gm_jsonint_range range, int64_t *out, gm_error *err) {
    char text[GM_JSONINT_QUOTE_CHARS + 16];
    gm_jsonint_quote(s, text, sizeof text);
    bool overflow;
    if (gm_jsonint_parse_decimal(s, out, &overflow)) {
        return true;
    }
    if (overflow) {
        return range_error(text, range, err);
    }
    return gm_error_set(err, GM_ERR_FORMAT, "%s is not a decimal integer", text);
}

/* The value text for a range message: the string as written (`string`),
 * or the number. */
static void describe_value(const char *string, int64_t v, char *buf, size_t size) {
    if (string != NULL) {
        gm_jsonint_quote(string, buf, size);
    } else {
        snprintf(buf, size, "%" PRId64, v);
    }
}

static bool check_range(const char *string, int64_t v, gm_jsonint_range range, gm_error *err) {
    char text[GM_JSONINT_QUOTE_CHARS + 16];
    if (v < range.lo || v > range.hi) {
        describe_value(string, v, text, sizeof text);
        return range_error(text, range, err);
    }
    if (v < range.min) {
        describe_value(string, v, text, sizeof text);
        return gm_error_set(err, GM_ERR_FORMAT, "%s is below the minimum %" PRId64, text,
                            range.min);
    }
    return true;
}

bool gm_jsonint_read_double(double d, gm_jsonint_range range, int64_t *out, gm_error *err) {
    int64_t v = 0;
    if (!read_number(d, &v, err) || !check_range(NULL, v, range, err)) {
        return false;
    }
    *out = v;
    return true;
}

bool gm_jsonint_read_string(const char *s, gm_jsonint_range range, int64_t *out,
                            gm_error *err) {
    int64_t v = 0;
    if (!read_string(s, range, &v, err) || !check_range(s, v, range, err)) {
        return false;
    }
    *out = v;
    return true;
}

/* -?[0-9]{1,15}: exact in a double, so the value is the text's. */
static bool plain_integer(const char *text, size_t len, int64_t *out) {
    size_t i = text[0] == '-' ? 1 : 0;
    if (len <= i || len - i > 15) {
        return false;
    }
    int64_t v = 0;
    for (size_t k = i; k < len; k++) {
        if (text[k] < '0' || text[k] > '9') {
            return false;
        }
        v = v * 10 + (text[k] - '0');
    }
    *out = i == 1 ? -v : v;
    return true;
}

bool gm_jsonint_read_number_text(const char *text, size_t len, gm_jsonint_range range,
                                 int64_t *out, gm_error *err) {
    int64_t v;
    if (plain_integer(text, len, &v)) {
        if (!check_range(NULL, v, range, err)) {
            return false;
        }
        *out = v;
        return true;
    }
    /* Fractions, exponents, long numbers: as a double, as cJSON read them. */
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a number of %zu bytes", len);
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    double d = strtod(copy, NULL);
    free(copy);
    return gm_jsonint_read_double(d, range, out, err);
}

bool gm_jsonint_read(const cJSON *item, gm_jsonint_range range, int64_t *out, gm_error *err) {
    if (cJSON_IsNumber(item)) {
        return gm_jsonint_read_double(item->valuedouble, range, out, err);
    }
    if (cJSON_IsString(item) && item->valuestring != NULL) {
        return gm_jsonint_read_string(item->valuestring, range, out, err);
    }
    return gm_error_set(err, GM_ERR_FORMAT, "expected an integer, found %s",
                        gm_jsonint_type_name(item));
}

/* A decimal string beyond int64 can still be a valid uint64. */
static bool read_u64_string(const char *s, uint64_t *out, gm_error *err) {
    char text[GM_JSONINT_QUOTE_CHARS + 16];
    gm_jsonint_quote(s, text, sizeof text);
    bool overflow;
    uint64_t mag;
    if (s[0] != '-' && parse_magnitude(s, UINT64_MAX, &mag, &overflow)) {
        *out = mag;
        return true;
    }
    int64_t negative;
    if (s[0] == '-' && gm_jsonint_parse_decimal(s, &negative, &overflow)) {
        if (negative == 0) {
            *out = 0; /* "-0" */
            return true;
        }
        return gm_error_set(err, GM_ERR_FORMAT, "%s is below the minimum 0", text);
    }
    if (overflow) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s is out of range for uint64 [0, %" PRIu64 "]",
                            text, UINT64_MAX);
    }
    return gm_error_set(err, GM_ERR_FORMAT, "%s is not a decimal integer", text);
}

bool gm_jsonint_read_u64_string(const char *s, uint64_t *out, gm_error *err) {
    return read_u64_string(s, out, err);
}

bool gm_jsonint_read_u64(const cJSON *item, uint64_t *out, gm_error *err) {
    if (cJSON_IsString(item) && item->valuestring != NULL) {
        return read_u64_string(item->valuestring, out, err);
    }
    int64_t v;
    if (!gm_jsonint_read(item, gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v, err)) {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

cJSON *gm_jsonint_create(int64_t v) {
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, v);
    if (v >= -GM_JSONINT_EXACT_MAX && v <= GM_JSONINT_EXACT_MAX) {
        return cJSON_CreateRaw(text);
    }
    return cJSON_CreateString(text);
}

cJSON *gm_jsonint_create_u64(uint64_t v) {
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, v);
    if (v <= (uint64_t)GM_JSONINT_EXACT_MAX) {
        return cJSON_CreateRaw(text);
    }
    return cJSON_CreateString(text);
}
