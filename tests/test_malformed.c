/* test_malformed FILE EXPECTFILE: FILE must fail to read, with a message
 * that names FILE and contains the expected text.
 *
 * EXPECTFILE holds the expected substring on one line, optionally preceded
 * by a line "limits: max_bs=4 max_width=8 max_elements=100 max_file_bytes=200"
 * that lowers the reader's limits (so that the limit checks are testable
 * with small files).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json.h"

#define EXPECT_LINE_MAX 1024

static void strip_newline(char *line) {
    line[strcspn(line, "\r\n")] = '\0';
}

/* Applies one "name=value" of a limits line; false when it is not one. */
static bool apply_limit(gm_limits *lim, const char *setting) {
    static const struct {
        const char *name;
        size_t offset;
    } names[] = {
        {"max_bs", offsetof(gm_limits, max_bs)},
        {"max_width", offsetof(gm_limits, max_width)},
        {"max_elements", offsetof(gm_limits, max_elements)},
        {"max_file_bytes", offsetof(gm_limits, max_file_bytes)},
    };
    const char *eq = strchr(setting, '=');
    if (eq == NULL) {
        return false;
    }
    char *end;
    unsigned long long v = strtoull(eq + 1, &end, 10);
    if (end == eq + 1 || *end != '\0') {
        return false;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) == (size_t)(eq - setting) &&
            strncmp(setting, names[i].name, (size_t)(eq - setting)) == 0) {
            *(size_t *)((char *)lim + names[i].offset) = (size_t)v;
            return true;
        }
    }
    return false;
}

static bool parse_limits_line(char *line, gm_limits *lim) {
    for (char *tok = strtok(line + strlen("limits:"), " \t"); tok != NULL;
         tok = strtok(NULL, " \t")) {
        if (!apply_limit(lim, tok)) {
            fprintf(stderr, "bad limits setting \"%s\"\n", tok);
            return false;
        }
    }
    return true;
}

/* Reads the expect file: optional limits line, then the expected text. */
static bool read_expect(const char *path, gm_limits *lim, char *expected, size_t size) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char line[EXPECT_LINE_MAX];
    bool ok = fgets(line, sizeof line, f) != NULL;
    if (ok && strncmp(line, "limits:", strlen("limits:")) == 0) {
        strip_newline(line);
        ok = parse_limits_line(line, lim) && fgets(line, sizeof line, f) != NULL;
    }
    fclose(f);
    if (!ok) {
        fprintf(stderr, "%s: no expected message\n", path);
        return false;
    }
    strip_newline(line);
    snprintf(expected, size, "%s", line);
    return expected[0] != '\0';
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_malformed FILE EXPECTFILE\n");
        return 2;
    }
    gm_limits lim;
    gm_limits_default(&lim);
    char expected[EXPECT_LINE_MAX];
    if (!read_expect(argv[2], &lim, expected, sizeof expected)) {
        return 2;
    }
    gm_doc doc;
    gm_error err;
    gm_error_clear(&err);
    bool read_ok = gm_json_read_file(argv[1], &lim, &doc, &err);
    gm_doc_free(&doc); /* must be safe after a failure too */
    if (read_ok) {
        fprintf(stderr, "FAIL: %s was accepted\n", argv[1]);
        return 1;
    }
    bool has_path = strstr(err.msg, argv[1]) != NULL;
    bool has_text = strstr(err.msg, expected) != NULL;
    fprintf(stderr, "%s: [%s] %s\n", has_path && has_text ? "ok" : "FAIL",
            gm_error_code_name(err.code), err.msg);
    if (!has_text) {
        fprintf(stderr, "  expected the message to contain: %s\n", expected);
    }
    if (!has_path) {
        fprintf(stderr, "  expected the message to name the file\n");
    }
    return has_path && has_text ? 0 : 1;
}
