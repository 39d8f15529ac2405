#include "cli_options.h"

#include <errno.h>
#include <getopt.h>
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

/* The shared flags, for getopt_long: each returns its index in this table
 * (flag = NULL, val = index), so one switch-free lookup gives its name. */
static const struct option cli_options_long[] = {
    {"max-file-size", required_argument, NULL, 0},
    {"max-elements", required_argument, NULL, 1},
    {"max-bs", required_argument, NULL, 2},
    {"max-width", required_argument, NULL, 3},
    {"target", required_argument, NULL, 4},
    {"backend", required_argument, NULL, 5},
    {"target-device", required_argument, NULL, 6},
    {"target-timeout", required_argument, NULL, 7},
    {"reference", required_argument, NULL, 8},
    {"reference-device", required_argument, NULL, 9},
    {"compare", required_argument, NULL, 10},
    {"json", no_argument, NULL, 11},
    {NULL, 0, NULL, 0},
};

enum { CLI_OPTIONS_N_LIMITS = 4, CLI_OPTIONS_COMPARE = 10, CLI_OPTIONS_JSON = 11 };

static size_t *cli_options_limit_field(cli_options *o, int index) {
    size_t *fields[CLI_OPTIONS_N_LIMITS] = {&o->limits.max_file_bytes, &o->limits.max_elements,
                                            &o->limits.max_bs, &o->limits.max_width};
    return index >= 0 && index < CLI_OPTIONS_N_LIMITS ? fields[index] : NULL;
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
        harness_target_spec t;
        harness_backend_kind kind;
        bool ok = strcmp(flag, "--target") == 0 ? harness_target_parse(value, &t, &err)
                  : harness_target_backend_from_name(value, &kind)
                      ? (harness_target_builtin(&t, kind), true)
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
    o->reference = value; /* --reference */
    return true;
}

/* One recognized flag (its index in cli_options_long) and its value. */
static bool cli_options_flag(cli_options *o, int index, const char *value) {
    char flag[40];
    snprintf(flag, sizeof flag, "--%s", cli_options_long[index].name);
    size_t *limit = cli_options_limit_field(o, index);
    if (limit != NULL) {
        return cli_options_size(flag, value, limit);
    }
    if (index == CLI_OPTIONS_COMPARE) {
        if (!gm_compare_from_name(value, &o->compare)) {
            fprintf(stderr, "gmfuzz: --compare takes live or strict\n");
            return false;
        }
        return true;
    }
    if (index == CLI_OPTIONS_JSON) {
        o->json = true;
        return true;
    }
    return cli_options_target_flag(o, flag, value);
}

/* getopt_long's '?' or ':': the flag it stopped at, named as given. */
static void cli_options_bad_flag(char **argv, int at, bool missing) {
    const char *flag = argv[at] != NULL ? argv[at] : "?";
    if (missing) {
        fprintf(stderr, "gmfuzz: %s needs a value\n", flag);
    } else {
        fprintf(stderr, "gmfuzz: unknown option '%s' (see gmfuzz --help)\n", flag);
    }
}

bool cli_options_parse(int argc, char **argv, int first, bool allow_json, cli_options *o,
                       const char **paths) {
    memset(o, 0, sizeof *o);
    harness_target_builtin(&o->target, HARNESS_BACKEND_CPU);
    o->compare = GM_COMPARE_LIVE;
    gm_limits_default(&o->limits);
    o->paths = paths;
    /* getopt_long scans argv[optind..]: argv[first - 1] plays argv[0].
     * "-" first in optstring: positional arguments come back in order, as
     * option 1, so that flags and paths may mix. Only long flags: no
     * abbreviations either, as before (getopt_long_only would take -json). */
    char **args = argv + first - 1;
    int n = argc - first + 1;
    opterr = 0;
    optind = 0; /* 0: glibc starts over (commands may parse twice) */
    for (;;) {
        int index = -1;
        int at = optind == 0 ? 1 : optind;
        int c = getopt_long(n, args, "-:", cli_options_long, &index);
        if (c == -1) {
            break;
        }
        if (c == 1) {
            paths[o->n_paths++] = optarg;
            continue;
        }
        bool exact = c >= 0 && c < CLI_OPTIONS_JSON + 1 &&
                     strncmp(args[at] + 2, cli_options_long[c].name,
                             strlen(cli_options_long[c].name)) == 0 &&
                     (args[at][2 + strlen(cli_options_long[c].name)] == '\0' ||
                      args[at][2 + strlen(cli_options_long[c].name)] == '=');
        if (c == '?' || c == ':' || !exact || (c == CLI_OPTIONS_JSON && !allow_json)) {
            cli_options_bad_flag(args, at, c == ':');
            return false;
        }
        if (!cli_options_flag(o, c, optarg)) {
            return false;
        }
    }
    for (int i = optind; i < n; i++) { /* after "--": all paths */
        paths[o->n_paths++] = args[i];
    }
    return true;
}

bool cli_options_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return true;
        }
    }
    return false;
}

bool cli_options_open_backend(const cli_options *o, harness_backend **b) {
    gm_error err = {0};
    if (!harness_backend_open_target(&o->target, b, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return false;
    }
    return true;
}

/* The target a document asks for (see cli_options_backend_for). */
static bool cli_options_doc_target(const cli_options *o, const gm_doc *doc, harness_target_spec *t) {
    *t = o->target;
    if (o->target_given || doc == NULL || doc->kind != GM_DOC_REPRO || !doc->repro.has_target) {
        return true;
    }
    gm_error err = {0};
    const gm_target_record *rec = &doc->repro.target;
    if (!harness_target_parse(rec->spec, t, &err)) {
        fprintf(stderr, "gmfuzz: the recorded target: %s\n", err.msg);
        return false;
    }
    t->device_cpu = rec->device != NULL && strcmp(rec->device, "cpu") == 0;
    t->timeout_s = o->target.timeout_s;
    return true;
}

static bool cli_options_same_target(const harness_target_spec *a, const harness_target_spec *b) {
    return a->kind == b->kind && a->builtin == b->builtin && strcmp(a->path, b->path) == 0 &&
           strcmp(a->function, b->function) == 0 && a->device_cpu == b->device_cpu;
}

bool cli_options_backend_for(const cli_options *o, const gm_doc *doc, harness_backend **b) {
    harness_target_spec t;
    if (!cli_options_doc_target(o, doc, &t)) {
        return false;
    }
    if (*b != NULL && cli_options_same_target(harness_backend_spec(*b), &t)) {
        return true;
    }
    harness_backend_close(*b);
    *b = NULL;
    cli_options one = *o;
    one.target = t;
    return cli_options_open_backend(&one, b);
}

bool cli_options_open_reference(const cli_options *o, harness_run_legacy **out) {
    *out = NULL;
    gm_error err = {0};
    if (o->reference != NULL &&
        !harness_run_legacy_open(o->reference, o->reference_cuda, o->target.timeout_s, out, &err)) {
        fprintf(stderr, "gmfuzz: --reference: %s\n", err.msg);
        return false;
    }
    return true;
}
