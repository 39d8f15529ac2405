#include "cli_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A size flag's value: a positive decimal integer. */
static bool cli_options_size(const char *flag, const char *text, size_t *out) {
    if (text == NULL) {
        fprintf(stderr, "gmfuzz: %s needs a value\n", flag);
        return false;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v == 0 || text[0] == '-') {
        fprintf(stderr, "gmfuzz: %s: '%s' is not a positive integer\n", flag, text);
        return false;
    }
    *out = (size_t)v;
    return true;
}

static size_t *cli_options_limit_field(cli_options *o, const char *flag) {
    if (strcmp(flag, "--max-file-size") == 0) {
        return &o->limits.max_file_bytes;
    }
    if (strcmp(flag, "--max-elements") == 0) {
        return &o->limits.max_elements;
    }
    if (strcmp(flag, "--max-bs") == 0) {
        return &o->limits.max_bs;
    }
    if (strcmp(flag, "--max-width") == 0) {
        return &o->limits.max_width;
    }
    return NULL;
}

static bool cli_options_flag(cli_options *o, const char *flag, const char *value, bool allow_json,
                             int *consumed) {
    *consumed = 1;
    size_t *limit = cli_options_limit_field(o, flag);
    if (limit != NULL) {
        *consumed = 2;
        return cli_options_size(flag, value, limit);
    }
    if (strcmp(flag, "--backend") == 0) {
        *consumed = 2;
        if (value == NULL || !gm_backend_kind_from_name(value, &o->backend)) {
            fprintf(stderr, "gmfuzz: --backend takes cpu, cuda, cuda-graph or cuda-raw\n");
            return false;
        }
        return true;
    }
    if (strcmp(flag, "--compare") == 0) {
        *consumed = 2;
        if (value == NULL || !gm_compare_from_name(value, &o->compare)) {
            fprintf(stderr, "gmfuzz: --compare takes live or strict\n");
            return false;
        }
        return true;
    }
    if (allow_json && strcmp(flag, "--json") == 0) {
        o->json = true;
        return true;
    }
    fprintf(stderr, "gmfuzz: unknown option '%s' (see gmfuzz --help)\n", flag);
    return false;
}

bool cli_options_parse(int argc, char **argv, int first, bool allow_json, cli_options *o,
                       const char **paths) {
    memset(o, 0, sizeof *o);
    o->backend = GM_BACKEND_CPU;
    o->compare = GM_COMPARE_LIVE;
    gm_limits_default(&o->limits);
    o->paths = paths;
    for (int i = first; i < argc; i++) {
        if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
            paths[o->n_paths++] = argv[i];
            continue;
        }
        int consumed = 1;
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!cli_options_flag(o, argv[i], value, allow_json, &consumed)) {
            return false;
        }
        i += consumed - 1;
    }
    return true;
}

bool cli_options_open_backend(const cli_options *o, gm_backend **b) {
    gm_error err = {0};
    if (!gm_backend_open(o->backend, b, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return false;
    }
    return true;
}
