/* Unit tests of gm_jsonint: reading integers from JSON numbers and decimal
 * strings, range checks and their messages, and exact writing. */
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "gm_jsonint.h"
#include "gm_test.h"

#define INT32 GM_JSONINT_INT32
#define INT64 GM_JSONINT_INT64

/* Parses `json` (one value) and reads it as an integer in `range`. */
static bool read_text(const char *json, gm_jsonint_range range, int64_t *out, gm_error *err) {
    cJSON *item = cJSON_Parse(json);
    gm_error_clear(err);
    if (item == NULL) {
        fprintf(stderr, "test bug: %s is not JSON\n", json);
        return false;
    }
    bool ok = gm_jsonint_read(item, range, out, err);
    cJSON_Delete(item);
    return ok;
}

static void expect_value(const char *json, gm_jsonint_range range, int64_t expected) {
    int64_t v = 12345;
    gm_error err;
    bool ok = read_text(json, range, &v, &err);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "  %s: %s\n", json, err.msg);
    }
    CHECK_EQ_I64(v, expected);
}

static void expect_error(const char *json, gm_jsonint_range range, const char *message) {
    int64_t v = 12345;
    gm_error err;
    CHECK(!read_text(json, range, &v, &err));
    CHECK_EQ_I64(v, 12345); /* untouched on failure */
    CHECK_EQ_I64(err.code, GM_ERR_FORMAT);
    CHECK_STR_CONTAINS(err.msg, message);
}

static void test_numbers(void) {
    expect_value("0", INT32, 0);
    expect_value("-0", INT32, 0);
    expect_value("-0.0", INT32, 0);
    expect_value("17", INT32, 17);
    expect_value("-17", INT64, -17);
    expect_value("1.0", INT32, 1);
    expect_value("1e3", INT32, 1000);
    expect_value("2147483647", INT32, INT32_MAX);
    expect_value("-2147483648", INT32, INT32_MIN);
}

static void test_exact_boundary(void) {
    expect_value("9007199254740992", INT64, (int64_t)1 << 53);
    expect_value("-9007199254740992", INT64, -((int64_t)1 << 53));
    expect_value("9007199254740991", INT64, ((int64_t)1 << 53) - 1);
    expect_error("9007199254740994", INT64, "9007199254740994 is beyond 2^53");
    expect_error("-9007199254740994", INT64, "beyond 2^53");
    expect_error("1e16", INT64, "1e+16 is beyond 2^53 and not exact as a JSON number "
                                "(write it as a decimal string)");
    expect_error("1e300", INT64, "1e+300 is beyond 2^53");
    expect_error("-1e300", INT64, "-1e+300 is beyond 2^53");
    expect_error("1e400", INT64, "too large for a double");
}

static void test_not_integers(void) {
    expect_error("1.5", INT64, "1.5 is not an integer");
    expect_error("-0.25", INT64, "-0.25 is not an integer");
    expect_error("0.1", INT64, "0.1 is not an integer");
    expect_error("1e-3", INT64, "0.001 is not an integer");
    expect_error("true", INT64, "expected an integer, found true");
    expect_error("false", INT64, "expected an integer, found false");
    expect_error("null", INT64, "expected an integer, found null");
    expect_error("[1]", INT64, "expected an integer, found an array");
    expect_error("{\"a\":1}", INT64, "expected an integer, found an object");
}

static void test_strings(void) {
    expect_value("\"0\"", INT64, 0);
    expect_value("\"-0\"", INT64, 0);
    expect_value("\"007\"", INT64, 7);
    expect_value("\"12\"", INT32, 12);
    expect_value("\"9223372036854775807\"", INT64, INT64_MAX);
    expect_value("\"-9223372036854775808\"", INT64, INT64_MIN);
    expect_value("\"9007199254740993\"", INT64, ((int64_t)1 << 53) + 1);
    expect_value("\"-2147483648\"", INT32, INT32_MIN);
}

static void test_bad_strings(void) {
    expect_error("\"12a\"", INT64, "\"12a\" is not a decimal integer");
    expect_error("\"\"", INT64, "\"\" is not a decimal integer");
    expect_error("\"-\"", INT64, "\"-\" is not a decimal integer");
    expect_error("\"+5\"", INT64, "\"+5\" is not a decimal integer");
    expect_error("\" 5\"", INT64, "\" 5\" is not a decimal integer");
    expect_error("\"5 \"", INT64, "\"5 \" is not a decimal integer");
    expect_error("\"0x10\"", INT64, "\"0x10\" is not a decimal integer");
    expect_error("\"1.0\"", INT64, "\"1.0\" is not a decimal integer");
    expect_error("\"1e3\"", INT64, "\"1e3\" is not a decimal integer");
    expect_error("\"--1\"", INT64, "\"--1\" is not a decimal integer");
    /* An overflowing prefix followed by junk is still "not decimal". */
    expect_error("\"99999999999999999999x\"", INT64, "is not a decimal integer");
    /* Control bytes are escaped, long strings cut. */
    expect_error("\"1\\n2\"", INT64, "\"1\\x0a2\" is not a decimal integer");
    expect_error("\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"", INT64,
                 "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" is not a decimal integer");
}

static void test_int64_range(void) {
    expect_error("\"9223372036854775808\"", INT64,
                 "\"9223372036854775808\" is out of range for int64 "
                 "[-9223372036854775808, 9223372036854775807]");
    expect_error("\"-9223372036854775809\"", INT64, "is out of range for int64");
    expect_error("\"100000000000000000000000000000\"", INT64, "is out of range for int64");
}

static void test_int32_range(void) {
    expect_error("2147483648", INT32,
                 "2147483648 is out of range for int32 [-2147483648, 2147483647]");
    expect_error("-2147483649", INT32, "-2147483649 is out of range for int32");
    expect_error("\"2147483648\"", INT32, "\"2147483648\" is out of range for int32");
    expect_error("\"9223372036854775808\"", INT32, "is out of range for int32");
}

static void test_minimum(void) {
    gm_jsonint_range positive = gm_jsonint_at_least(INT32, 1);
    expect_value("1", positive, 1);
    expect_error("0", positive, "0 is below the minimum 1");
    expect_error("-5", positive, "-5 is below the minimum 1");
    expect_error("\"0\"", positive, "\"0\" is below the minimum 1");
    /* The dtype range is reported before the field's own minimum. */
    expect_error("2147483648", positive, "out of range for int32");
    expect_error("-2147483649", positive, "out of range for int32");
    gm_jsonint_range natural = gm_jsonint_at_least(INT64, 0);
    expect_value("0", natural, 0);
    expect_value("\"-0\"", natural, 0);
    expect_error("-1", natural, "-1 is below the minimum 0");
    /* A minimum below the dtype's is the dtype's. */
    CHECK_EQ_I64(gm_jsonint_at_least(INT32, INT64_MIN).min, INT32_MIN);
}

static void expect_u64(const char *json, uint64_t expected) {
    cJSON *item = cJSON_Parse(json);
    uint64_t v = 0;
    gm_error err;
    gm_error_clear(&err);
    CHECK(item != NULL && gm_jsonint_read_u64(item, &v, &err));
    CHECK(v == expected);
    cJSON_Delete(item);
}

static void expect_u64_error(const char *json, const char *message) {
    cJSON *item = cJSON_Parse(json);
    uint64_t v = 7;
    gm_error err;
    gm_error_clear(&err);
    CHECK(item != NULL && !gm_jsonint_read_u64(item, &v, &err));
    CHECK(v == 7);
    CHECK_STR_CONTAINS(err.msg, message);
    cJSON_Delete(item);
}

static void test_u64(void) {
    expect_u64("0", 0);
    expect_u64("123456", 123456);
    expect_u64("\"18446744073709551615\"", UINT64_MAX);
    expect_u64("\"9223372036854775808\"", (uint64_t)INT64_MAX + 1);
    expect_u64("\"-0\"", 0);
    expect_u64_error("-1", "-1 is below the minimum 0");
    expect_u64_error("\"-1\"", "\"-1\" is below the minimum 0");
    expect_u64_error("\"18446744073709551616\"", "out of range for uint64");
    expect_u64_error("\"1x\"", "is not a decimal integer");
    expect_u64_error("1.5", "1.5 is not an integer");
    expect_u64_error("null", "expected an integer, found null");
}

static void test_parse_decimal(void) {
    int64_t v = 0;
    bool overflow = true;
    CHECK(gm_jsonint_parse_decimal("-42", &v, &overflow));
    CHECK_EQ_I64(v, -42);
    CHECK(!gm_jsonint_parse_decimal("42x", &v, &overflow));
    CHECK(!overflow);
    CHECK(!gm_jsonint_parse_decimal("9223372036854775808", &v, &overflow));
    CHECK(overflow);
    CHECK(!gm_jsonint_parse_decimal("", &v, &overflow));
    CHECK(!overflow);
}

/* Prints a created node as cJSON would put it in a file. */
static void expect_printed(cJSON *item, const char *expected) {
    char *text = item != NULL ? cJSON_PrintUnformatted(item) : NULL;
    CHECK(text != NULL && strcmp(text, expected) == 0);
    if (text != NULL && strcmp(text, expected) != 0) {
        fprintf(stderr, "  printed %s, expected %s\n", text, expected);
    }
    cJSON_free(text);
    cJSON_Delete(item);
}

static void test_create(void) {
    expect_printed(gm_jsonint_create(0), "0");
    expect_printed(gm_jsonint_create(-1), "-1");
    expect_printed(gm_jsonint_create(1000000000000000), "1000000000000000");
    expect_printed(gm_jsonint_create((int64_t)1 << 53), "9007199254740992");
    expect_printed(gm_jsonint_create(-((int64_t)1 << 53)), "-9007199254740992");
    expect_printed(gm_jsonint_create(((int64_t)1 << 53) + 1), "\"9007199254740993\"");
    expect_printed(gm_jsonint_create(-((int64_t)1 << 53) - 1), "\"-9007199254740993\"");
    expect_printed(gm_jsonint_create(INT64_MAX), "\"9223372036854775807\"");
    expect_printed(gm_jsonint_create(INT64_MIN), "\"-9223372036854775808\"");
    expect_printed(gm_jsonint_create_u64(UINT64_MAX), "\"18446744073709551615\"");
    expect_printed(gm_jsonint_create_u64(12), "12");
}

/* Whatever is written reads back to the same value. */
static void test_round_trip(void) {
    const int64_t values[] = {0, 1, -1, INT32_MAX, INT32_MIN, ((int64_t)1 << 53),
                              ((int64_t)1 << 53) + 1, -((int64_t)1 << 53) - 1, INT64_MAX,
                              INT64_MIN, 1099511627779};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        cJSON *item = gm_jsonint_create(values[i]);
        char *text = cJSON_PrintUnformatted(item);
        int64_t v = 0;
        gm_error err;
        CHECK(text != NULL && read_text(text, INT64, &v, &err));
        CHECK_EQ_I64(v, values[i]);
        cJSON_free(text);
        cJSON_Delete(item);
    }
}

static void test_describe(void) {
    char buf[80];
    gm_jsonint_quote("a\"b\\c", buf, sizeof buf);
    CHECK(strcmp(buf, "\"a\\\"b\\\\c\"") == 0);
    gm_jsonint_quote("\xff", buf, sizeof buf);
    CHECK(strcmp(buf, "\"\\xff\"") == 0);
    gm_jsonint_quote("abcdef", buf, 5); /* too small: cut, still terminated */
    CHECK(strlen(buf) < 5);
    CHECK(strcmp(gm_jsonint_type_name(NULL), "nothing") == 0);
}

int main(void) {
    GM_RUN(test_numbers);
    GM_RUN(test_exact_boundary);
    GM_RUN(test_not_integers);
    GM_RUN(test_strings);
    GM_RUN(test_bad_strings);
    GM_RUN(test_int64_range);
    GM_RUN(test_int32_range);
    GM_RUN(test_minimum);
    GM_RUN(test_u64);
    GM_RUN(test_parse_decimal);
    GM_RUN(test_create);
    GM_RUN(test_round_trip);
    GM_RUN(test_describe);
    GM_TEST_END();
}
