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

static bool cli_options_device(const char *flag, const char *value, bool *cpu) {
    if (value == NULL || (strcmp(value, "cpu") != 0 && strcmp(value, "cuda") != 0)) {
        fprintf(stderr, "gmfuzz: %s takes cuda or cpu\n", flag);
        return false;
    }
    *cpu = strcmp(value, "cpu") == 0;
    return true;
}

/* --target, --backend, --target-device, --target-timeout, --reference,
 * --reference-device; device and timeout survive a later --target. */
static bool cli_options_target_flag(cli_options *o, const char *flag, const char *value) {
    gm_error err = {0};
    if (value == NULL) {
        fprintf(stderr, "gmfuzz: %s needs a value\n", flag);
        return false;
    }
    if (strcmp(flag, "--target") == 0 || strcmp(flag, "--backend") == 0) {
        gm_target_spec t;
        gm_backend_kind kind;
        bool ok = strcmp(flag, "--target") == 0 ? gm_target_parse(value, &t, &err)
                  : gm_backend_kind_from_name(value, &kind)
                      ? (gm_target_builtin(&t, kind), true)
                      : gm_error_set(&err, GM_ERR_USAGE,
                                     "--backend takes cpu, cuda, cuda-graph or cuda-raw");
        if (!ok) {
            fprintf(stderr, "gmfuzz: %s\n", err.msg);
            return false;
        }
        t.device_cpu = o->target.device_cpu;
        t.timeout_s = o->target.timeout_s;
        o->target = t;
        o->target_given = true;
        return true;
    }
    if (strcmp(flag, "--target-device") == 0) {
        return cli_options_device(flag, value, &o->target.device_cpu);
    }
    if (strcmp(flag, "--reference-device") == 0) {
        bool cpu = true;
        bool ok = cli_options_device(flag, value, &cpu);
        o->reference_cuda = !cpu;
        return ok;
    }
    if (strcmp(flag, "--target-timeout") == 0) {
        char *end = NULL;
        double s = strtod(value, &end);
        if (end == value || *end != '\0' || !(s > 0 && s <= 86400)) {
            fprintf(stderr, "gmfuzz: --target-timeout: '%s' is not a number of seconds\n", value);
            return false;
        }
        o->target.timeout_s = s;
        return true;
    }
    if (strcmp(flag, "--reference") == 0) {
        o->reference = value;
        return true;
    }
    fprintf(stderr, "gmfuzz: unknown option '%s' (see gmfuzz --help)\n", flag);
    return false;
}

static bool cli_options_flag(cli_options *o, const char *flag, const char *value, bool allow_json,
                             int *consumed) {
    *consumed = 1;
    size_t *limit = cli_options_limit_field(o, flag);
    if (limit != NULL) {
        *consumed = 2;
        return cli_options_size(flag, value, limit);
    }
    if (strncmp(flag, "--target", 8) == 0 || strncmp(flag, "--reference", 11) == 0 ||
        strcmp(flag, "--backend") == 0) {
        *consumed = 2;
        return cli_options_target_flag(o, flag, value);
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
    gm_target_builtin(&o->target, GM_BACKEND_CPU);
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
    if (!gm_backend_open_target(&o->target, b, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return false;
    }
    return true;
}

/* The target a document asks for (see cli_options_backend_for). */
static bool cli_options_doc_target(const cli_options *o, const gm_doc *doc, gm_target_spec *t) {
    *t = o->target;
    if (o->target_given || doc == NULL || doc->kind != GM_DOC_REPRO || !doc->repro.has_target) {
        return true;
    }
    gm_error err = {0};
    const gm_target_record *rec = &doc->repro.target;
    if (!gm_target_parse(rec->spec, t, &err)) {
        fprintf(stderr, "gmfuzz: the recorded target: %s\n", err.msg);
        return false;
    }
    t->device_cpu = rec->device != NULL && strcmp(rec->device, "cpu") == 0;
    t->timeout_s = o->target.timeout_s;
    return true;
}

static bool cli_options_same_target(const gm_target_spec *a, const gm_target_spec *b) {
    return a->kind == b->kind && a->builtin == b->builtin && strcmp(a->path, b->path) == 0 &&
           strcmp(a->function, b->function) == 0 && a->device_cpu == b->device_cpu;
}

bool cli_options_backend_for(const cli_options *o, const gm_doc *doc, gm_backend **b) {
    gm_target_spec t;
    if (!cli_options_doc_target(o, doc, &t)) {
        return false;
    }
    if (*b != NULL && cli_options_same_target(gm_backend_spec(*b), &t)) {
        return true;
    }
    gm_backend_close(*b);
    *b = NULL;
    cli_options one = *o;
    one.target = t;
    return cli_options_open_backend(&one, b);
}

bool cli_options_open_reference(const cli_options *o, gm_legacy **out) {
    *out = NULL;
    gm_error err = {0};
    if (o->reference != NULL &&
        !gm_legacy_open(o->reference, o->reference_cuda, o->target.timeout_s, out, &err)) {
        fprintf(stderr, "gmfuzz: --reference: %s\n", err.msg);
        return false;
    }
    return true;
}
