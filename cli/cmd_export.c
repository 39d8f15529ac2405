/* gmfuzz export pytest REPRO.json -o test_x.py [reader limits]
 *
 * Writes a reproducer as a standalone pytest file (export/export.h),
 * atomically (temporary file, fsync, rename); `-o -` writes to stdout.
 *
 * A reproducer that replay would reject is refused (cmd_export_check).
 *
 * Exit codes: 0 written; 1 refused; 2 usage; 3 the input cannot be read or
 * is not a reproducer; 4 the output cannot be written or the backend
 * failed.
 */
#include "cmd_export.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm_file.h"
#include "repro.h"
#include "cli_options.h"
#include "harness.h"
#include "export.h"

static const char cmd_export_usage[] =
    "usage: gmfuzz export pytest REPRO.json -o test_x.py\n"
    "  writes a reproducer as a standalone pytest file for sglang's test suite;\n"
    "  a reproducer that replay would reject (its outputs, verdict, signature or\n"
    "  classes are not what gmfuzz computes again) is refused\n"
    "  -o, --output FILE       the file to write (- : stdout)\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 written, 1 refused (replay rejects the reproducer), 2 usage,\n"
    "3 unreadable input or not a reproducer, 4 the output cannot be written or the\n"
    "backend failed\n";

#ifndef GMFUZZ_VERSION
#define GMFUZZ_VERSION "0.0.0"
#endif

typedef struct {
    cli_options common;
    const char *output;
} cmd_export_options;

/* export's own option, besides the shared ones. */
static const struct option cmd_export_longs[] = {
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int cmd_export_take(void *ctx, const cli_getopt_item *item) {
    cmd_export_options *o = ctx;
    if (item->code == CLI_GETOPT_MISSING &&
        (strcmp(item->flag, "-o") == 0 || strcmp(item->flag, "--output") == 0)) {
        fprintf(stderr, "gmfuzz export: %s needs a file\n", item->flag);
        return 0;
    }
    if (item->code != 'o') {
        return -1;
    }
    o->output = item->value;
    return 1;
}

/* `export pytest ...`: argv[1] names the format, and plays argv[0] for the
 * scan of what follows it. */
static bool cmd_export_parse(int argc, char **argv, cmd_export_options *o, const char **paths) {
    memset(o, 0, sizeof *o);
    if (argc < 2 || strcmp(argv[1], "pytest") != 0) {
        fprintf(stderr, "gmfuzz export: the one format is pytest: "
                        "gmfuzz export pytest REPRO.json -o test_x.py\n");
        return false;
    }
    cli_options_own own = {cmd_export_longs, "o:", cmd_export_take, o};
    if (!cli_options_parse(argc - 1, argv + 1, false, &own, &o->common, paths)) {
        return false;
    }
    if (o->common.n_paths != 1 || o->output == NULL) {
        fprintf(stderr, "gmfuzz export: takes one REPRO.json and -o test_x.py\n");
        return false;
    }
    return true;
}

/* Writes the file next to `path`, then renames it onto `path`. */
static bool cmd_export_to_file(const gm_doc *doc, const export_pytest_origin *origin,
                               const char *path, gm_error *err) {
    gm_file_atomic a;
    if (!gm_file_atomic_begin(&a, path, err)) {
        return false;
    }
    if (!export_pytest_write(a.f, doc, origin, err)) {
        gm_file_atomic_abort(&a);
        return false;
    }
    return gm_file_atomic_commit(&a, err);
}

/* A reproducer found on an external target expects what gmfuzz's fused
 * model writes, not what the target wrote: the model on the host. */
static bool cmd_export_fused_model(const gm_doc *doc, gm_outputs *model, gm_error *err) {
    harness_backend *cpu = NULL;
    bool ok = harness_backend_open(HARNESS_BACKEND_CPU, &cpu, err) && harness_backend_run(cpu, &doc->c, model, err);
    harness_backend_close(cpu);
    return ok;
}

static int cmd_export_write(const gm_doc *doc, const cmd_export_options *o) {
    gm_outputs model;
    gm_outputs_init(&model);
    export_pytest_origin origin = {o->common.paths[0], "gmfuzz " GMFUZZ_VERSION, NULL};
    gm_error err = {0};
    bool to_stdout = strcmp(o->output, "-") == 0;
    bool ok = true;
    if (doc->repro.has_target) {
        ok = cmd_export_fused_model(doc, &model, &err);
        origin.fused_model = &model;
    }
    ok = ok && (to_stdout ? export_pytest_write(stdout, doc, &origin, &err)
                          : cmd_export_to_file(doc, &origin, o->output, &err));
    gm_outputs_free(&model);
    if (!ok) {
        fprintf(stderr, "gmfuzz export: %s\n", err.msg);
        return CLI_EXIT_BACKEND;
    }
    if (!to_stdout) {
        printf("wrote %s (%s)\n", o->output, doc->repro.signature);
    }
    return CLI_EXIT_OK;
}

/* Whether replay would accept the reproducer, so that the exported test
 * expects what gmfuzz computes, not a stale or tampered recording. A
 * reproducer of the built-in kernel is replayed as `replay` does (on
 * --target, default builtin:cpu); one found on an external target is not
 * run again here (the target may be fixed by now, or absent), so only its
 * recorded signature and classes are checked against its recorded outputs.
 * CLI_EXIT_OK, CLI_EXIT_FINDING (refused, said why) or CLI_EXIT_BACKEND. */
static int cmd_export_check(const gm_doc *doc, const cmd_export_options *o) {
    harness_replay_outcome outcome = {.passed = true};
    gm_error err = {0};
    harness_backend *b = NULL;
    bool ran = true;
    if (!doc->repro.has_target) {
        ran = cli_options_backend_for(&o->common, doc, &b) &&
              harness_replay_doc(b, doc, GM_COMPARE_LIVE, &outcome, &err);
        if (!ran && err.msg[0] != '\0') {
            fprintf(stderr, "gmfuzz export: %s: %s\n", o->common.paths[0], err.msg);
        }
    }
    harness_backend_close(b);
    if (!ran) {
        return CLI_EXIT_BACKEND;
    }
    if (outcome.passed) {
        outcome.passed = repro_check(doc, NULL, outcome.message, sizeof outcome.message);
    }
    if (!outcome.passed) {
        fprintf(stderr, "gmfuzz export: refused %s: replay rejects it: %s\n", o->common.paths[0],
                outcome.message);
        return CLI_EXIT_FINDING;
    }
    return CLI_EXIT_OK;
}

static int cmd_export_run(const cmd_export_options *o) {
    gm_doc doc;
    gm_error err = {0};
    int rc = CLI_EXIT_INPUT;
    if (!gm_json_read_file(o->common.paths[0], &o->common.limits, &doc, &err)) {
        fprintf(stderr, "gmfuzz export: %s\n", err.msg);
    } else if (doc.kind != GM_DOC_REPRO) {
        fprintf(stderr, "gmfuzz export: %s is a %s, not a reproducer (gmfuzz minimize makes one)\n",
                o->common.paths[0], gm_doc_kind_name(doc.kind));
    } else if ((rc = cmd_export_check(&doc, o)) == CLI_EXIT_OK) {
        rc = cmd_export_write(&doc, o);
    }
    gm_doc_free(&doc);
    return rc;
}

static int cmd_export_body(int argc, char **argv, const char **paths) {
    cmd_export_options o;
    return cmd_export_parse(argc, argv, &o, paths) ? cmd_export_run(&o) : CLI_EXIT_USAGE;
}

int cmd_export_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_export_usage, cmd_export_body);
}
