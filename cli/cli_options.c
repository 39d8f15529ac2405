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

/* The shared flags, by index; each one's getopt code is CLI_OPTIONS_SHARED
 * + its index, so a flag is told by its index and its name is spelled
 * only in the table below. */
enum {
    CLI_OPTIONS_MAX_FILE_SIZE, CLI_OPTIONS_MAX_ELEMENTS, CLI_OPTIONS_MAX_BS, CLI_OPTIONS_MAX_WIDTH,
    CLI_OPTIONS_TARGET, CLI_OPTIONS_BACKEND, CLI_OPTIONS_TARGET_DEVICE, CLI_OPTIONS_TARGET_TIMEOUT,
    CLI_OPTIONS_REFERENCE, CLI_OPTIONS_REFERENCE_DEVICE, CLI_OPTIONS_COMPARE, CLI_OPTIONS_JSON,
    CLI_OPTIONS_TARGET_COMPILE_TIMEOUT, CLI_OPTIONS_TARGET_CACHE, CLI_OPTIONS_N_SHARED,
    CLI_OPTIONS_N_LIMITS = CLI_OPTIONS_MAX_WIDTH + 1,
};
#define CLI_OPTIONS_ROW(index, name, has_arg) [index] = {name, has_arg, NULL, CLI_OPTIONS_SHARED + index}
static const struct option cli_options_long[CLI_OPTIONS_N_SHARED] = {
    CLI_OPTIONS_ROW(CLI_OPTIONS_MAX_FILE_SIZE, "max-file-size", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_MAX_ELEMENTS, "max-elements", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_MAX_BS, "max-bs", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_MAX_WIDTH, "max-width", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_TARGET, "target", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_BACKEND, "backend", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_TARGET_DEVICE, "target-device", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_TARGET_TIMEOUT, "target-timeout", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_REFERENCE, "reference", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_REFERENCE_DEVICE, "reference-device", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_COMPARE, "compare", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_JSON, "json", no_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_TARGET_COMPILE_TIMEOUT, "target-compile-timeout", required_argument),
    CLI_OPTIONS_ROW(CLI_OPTIONS_TARGET_CACHE, "target-cache", required_argument),
};

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

/* Seconds in (0, 1 day] for `flag`; false (said) otherwise. */
static bool cli_options_seconds(const char *flag, const char *value, double *out) {
    char *end = NULL;
    double s = strtod(value, &end);
    if (end == value || *end != '\0' || !(s > 0 && s <= 86400)) {
        fprintf(stderr, "gmfuzz: %s: '%s' is not a number of seconds\n", flag, value);
        return false;
    }
    *out = s;
    return true;
}

/* --target SPEC, or --backend NAME (builtin:NAME); the device and the
 * timeouts given before it are kept. */
static bool cli_options_set_target(cli_options *o, bool backend, const char *flag,
                                   const char *value) {
    gm_error err = {0};
    harness_target_spec t;
    harness_backend_kind kind;
    bool ok = !backend ? harness_target_parse(value, &t, &err)
              : harness_target_backend_from_name(value, &kind)
                  ? (harness_target_builtin(&t, kind), true)
                  : gm_error_set(&err, GM_ERR_USAGE, "%s takes cpu, cuda, cuda-graph or cuda-raw",
                                 flag);
    if (!ok) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return false;
    }
    t.device_cpu = o->target.device_cpu;
    t.timeout_s = o->target.timeout_s;
    t.compile_timeout_s = o->target.compile_timeout_s;
    o->target = t;
    o->target_given = true;
    return true;
}

/* --target, --backend, --target-device, --target-timeout,
 * --target-compile-timeout, --target-cache, --reference, --reference-device;
 * device and timeouts survive a later --target. --target-cache is the
 * target JIT's cache for every process this one starts (TRITON_CACHE_DIR). */
static bool cli_options_target_flag(cli_options *o, int index, const char *flag,
                                    const char *value) {
    if (value == NULL) {
        fprintf(stderr, "gmfuzz: %s needs a value\n", flag);
        return false;
    }
    switch (index) {
    case CLI_OPTIONS_TARGET:
    case CLI_OPTIONS_BACKEND:
        return cli_options_set_target(o, index == CLI_OPTIONS_BACKEND, flag, value);
    case CLI_OPTIONS_TARGET_DEVICE:
        return cli_options_device(flag, value, &o->target.device_cpu);
    case CLI_OPTIONS_REFERENCE_DEVICE: {
        bool cpu = true;
        bool ok = cli_options_device(flag, value, &cpu);
        o->reference_cuda = !cpu;
        return ok;
    }
    case CLI_OPTIONS_TARGET_TIMEOUT:
        return cli_options_seconds(flag, value, &o->target.timeout_s);
    case CLI_OPTIONS_TARGET_COMPILE_TIMEOUT:
        return cli_options_seconds(flag, value, &o->target.compile_timeout_s);
    case CLI_OPTIONS_TARGET_CACHE:
        return setenv("TRITON_CACHE_DIR", value, 1) == 0;
    default: /* CLI_OPTIONS_REFERENCE */
        o->reference = value;
        return true;
    }
}

/* One shared flag (its index in cli_options_long) and its value. */
static bool cli_options_flag(cli_options *o, int index, const char *value) {
    char flag[40];
    snprintf(flag, sizeof flag, "--%s", cli_options_long[index].name);
    size_t *limit = cli_options_limit_field(o, index);
    if (limit != NULL) {
        return cli_options_size(flag, value, limit);
    }
    if (index == CLI_OPTIONS_COMPARE) {
        if (!gm_compare_from_name(value, &o->compare)) {
            fprintf(stderr, "gmfuzz: %s takes live or strict\n", flag);
            return false;
        }
        o->compare_given = true;
        return true;
    }
    if (index == CLI_OPTIONS_JSON) {
        o->json = true;
        return true;
    }
    return cli_options_target_flag(o, index, flag, value);
}

/* The scan's state: the options filled in, and what else takes flags. */
typedef struct {
    cli_options *o;
    const cli_options_own *own;
    bool allow_json;
} cli_options_scan;

static bool cli_options_take(void *ctx, const cli_getopt_item *item) {
    cli_options_scan *scan = ctx;
    int shared = item->code - CLI_OPTIONS_SHARED;
    bool is_shared = shared >= 0 && shared < CLI_OPTIONS_N_SHARED;
    if (item->code == CLI_GETOPT_ARG) {
        scan->o->paths[scan->o->n_paths++] = item->value;
        return true;
    }
    if (!is_shared && scan->own != NULL) {
        int taken = scan->own->take(scan->own->ctx, item);
        if (taken >= 0) {
            return taken == 1;
        }
    }
    if (item->code == CLI_GETOPT_MISSING) {
        fprintf(stderr, "gmfuzz: %s needs a value\n", item->flag);
        return false;
    }
    if (!is_shared || (shared == CLI_OPTIONS_JSON && !scan->allow_json)) {
        fprintf(stderr, "gmfuzz: unknown option '%s' (see gmfuzz --help)\n", item->flag);
        return false;
    }
    return cli_options_flag(scan->o, shared, item->value);
}

/* The shared table followed by the command's own (NULL: out of memory). */
static struct option *cli_options_table(const cli_options_own *own) {
    size_t n_own = 0;
    while (own != NULL && own->longs != NULL && own->longs[n_own].name != NULL) {
        n_own++;
    }
    struct option *all = calloc(CLI_OPTIONS_N_SHARED + n_own + 1, sizeof *all);
    if (all != NULL) {
        memcpy(all, cli_options_long, sizeof cli_options_long);
        for (size_t i = 0; i < n_own; i++) {
            all[CLI_OPTIONS_N_SHARED + i] = own->longs[i];
        }
    }
    return all;
}

bool cli_options_parse(int argc, char **argv, bool allow_json, const cli_options_own *own,
                       cli_options *o, const char **paths) {
    memset(o, 0, sizeof *o);
    harness_target_builtin(&o->target, HARNESS_BACKEND_CPU);
    o->compare = GM_COMPARE_LIVE;
    gm_limits_default(&o->limits);
    o->paths = paths;
    struct option *all = cli_options_table(own);
    if (all == NULL) {
        fprintf(stderr, "gmfuzz: out of memory\n");
        return false;
    }
    cli_options_scan scan = {o, own, allow_json};
    bool ok = cli_getopt_scan(argc, argv, own != NULL ? own->shorts : "", all,
                              cli_options_take, &scan);
    free(all);
    return ok;
}

int cli_options_main(int argc, char **argv, const char *usage, cli_options_body body) {
    if (cli_options_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    if (paths == NULL) {
        fprintf(stderr, "gmfuzz: out of memory\n");
        return CLI_EXIT_BACKEND;
    }
    int rc = body(argc, argv, paths);
    free(paths);
    return rc;
}

bool cli_options_wants_help(int argc, char **argv) {
    return cli_getopt_wants_help(argc, argv);
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
    t->compile_timeout_s = o->target.compile_timeout_s;
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
