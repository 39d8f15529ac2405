/* gmfuzz retest PATH... [--target T] [--record FILE] [--json]: every
 * reproducer of campaign folders, corpora or files run on today's target
 * and sorted into still failing, fixed and changed (history/history.h).
 * A table (or, --json, the record on stdout), and --record FILE writes the
 * record (gmfuzz-retest-v1) too. */
#include "cmd_retest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "harness.h"
#include "history.h"

static const char cmd_retest_usage[] =
    "usage: gmfuzz retest PATH... [--target T] [--record FILE] [--json]\n"
    "  runs every reproducer again on the target and sorts it: still_failing (the\n"
    "  bucket it records), fixed (the two sides match now) or changed (another\n"
    "  bucket). PATH: a campaign folder (one reproducer per signature: its\n"
    "  minimized one), any other folder (every *.json below it: the regression\n"
    "  corpus) or a reproducer file. One line per reproducer, then\n"
    "  'N reproducers: N fixed, N still failing, N changed'\n"
    "  --record FILE           also write the record (gmfuzz-retest-v1) to FILE\n"
    "  --json                  print the record instead of the table\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 every reproducer still fails in its bucket (nothing to act on),\n"
    "1 one changed bucket (a finding to triage again; wins over 6), 2 usage,\n"
    "3 a file is not a reproducer or cannot be read, 4 the target failed,\n"
    "5 no reproducer found, 6 one is fixed (none changed): close its finding\n";

typedef struct {
    cli_options common;
    const char *record;
} cmd_retest_options;

enum { CMD_RETEST_RECORD = 1000 };
static const struct option cmd_retest_longs[] = {
    {"record", required_argument, NULL, CMD_RETEST_RECORD},
    {NULL, 0, NULL, 0},
};

static int cmd_retest_take(void *ctx, const cli_getopt_item *item) {
    if (item->code != CMD_RETEST_RECORD) {
        return -1;
    }
    ((cmd_retest_options *)ctx)->record = item->value;
    return 1;
}

/* The torch reference this reproducer is run with: --reference for all; a
 * drift's (it carries "torch_reference") the default python: when none is
 * given, opened once (`*legacy` kept between files); NULL: two-way. */
static harness_run_legacy *cmd_retest_reference(const cli_options *o, const gm_doc *doc,
                                                harness_run_legacy **legacy) {
    bool drift = doc->kind == GM_DOC_REPRO && doc->repro.has_torch;
    if (*legacy == NULL && (o->reference != NULL || drift)) {
        cli_options one = *o;
        one.reference = o->reference != NULL ? o->reference : "python:";
        cli_options_open_reference(&one, legacy);
    }
    return o->reference != NULL || drift ? *legacy : NULL;
}

/* One reproducer: read, its target opened (`*b` kept between files), run. */
static bool cmd_retest_file(harness_backend **b, harness_run_legacy **legacy, const cli_options *o,
                            const char *path, history_retest *r, int *worst) {
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    history_verdict v;
    char target[HARNESS_TARGET_PATH_MAX + 200] = "-";
    bool ok = true;
    if (!gm_json_read_file(path, &o->limits, &doc, &err)) {
        *worst = CLI_EXIT_INPUT;
        ok = history_retest_add(r, path, target, NULL, err.msg, &err);
    } else if (!cli_options_backend_for(o, &doc, b)) {
        *worst = CLI_EXIT_BACKEND;
        ok = history_retest_add(r, path, target, NULL, "the target could not start", &err);
    } else {
        harness_target_format(harness_backend_spec(*b), target, sizeof target);
        harness_backend_set_legacy(*b, cmd_retest_reference(o, &doc, legacy));
        if (history_verdict_run(*b, &doc, &v, &err)) {
            ok = history_retest_add(r, path, target, &v, NULL, &err);
        } else {
            *worst = err.code == GM_ERR_USAGE ? CLI_EXIT_INPUT : CLI_EXIT_BACKEND;
            ok = history_retest_add(r, path, target, NULL, err.msg, &err);
        }
    }
    gm_doc_free(&doc);
    if (!ok) {
        fprintf(stderr, "gmfuzz retest: %s\n", err.msg);
    }
    return ok;
}

/* The table or the record, and --record. */
static bool cmd_retest_output(const cmd_retest_options *o, const history_retest *r) {
    cJSON *doc = NULL;
    if (o->common.json || o->record != NULL) {
        doc = history_retest_json(r);
        if (doc == NULL) {
            fprintf(stderr, "gmfuzz retest: out of memory\n");
            return false;
        }
    }
    gm_error err = {0};
    bool ok = o->record == NULL || gm_json_write_file(o->record, doc, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz retest: %s\n", err.msg);
    }
    char *text = o->common.json ? cJSON_Print(doc) : NULL;
    if (o->common.json) {
        ok = ok && text != NULL && printf("%s\n", text) > 0;
    } else {
        history_retest_print(r, stdout);
    }
    cJSON_free(text);
    cJSON_Delete(doc);
    return ok;
}

/* The exit code of a finished retest (the usage text's list). */
static int cmd_retest_code(const history_retest *r, int worst) {
    if (worst != CLI_EXIT_OK) {
        return worst;
    }
    if (r->count[HISTORY_CHANGED] > 0) {
        return CLI_EXIT_FINDING;
    }
    return r->count[HISTORY_FIXED] > 0 ? CLI_EXIT_FIXED : CLI_EXIT_OK;
}

static int cmd_retest_run(const cmd_retest_options *o) {
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    if (!history_retest_paths(o->common.paths, (size_t)o->common.n_paths, &files, &err)) {
        fprintf(stderr, "gmfuzz retest: %s\n", err.msg);
        harness_paths_free(&files);
        return CLI_EXIT_USAGE;
    }
    if (files.count == 0) {
        fprintf(stderr, "gmfuzz retest: no reproducer found under %s\n", o->common.paths[0]);
        harness_paths_free(&files);
        return CLI_EXIT_NO_DOCUMENTS;
    }
    history_retest r;
    history_retest_init(&r);
    harness_backend *b = NULL;
    harness_run_legacy *legacy = NULL;
    int worst = CLI_EXIT_OK;
    bool ok = true;
    for (size_t i = 0; ok && i < files.count; i++) {
        ok = cmd_retest_file(&b, &legacy, &o->common, files.items[i], &r, &worst);
    }
    harness_backend_close(b);
    harness_run_legacy_close(legacy);
    ok = ok && cmd_retest_output(o, &r);
    int rc = ok ? cmd_retest_code(&r, worst) : CLI_EXIT_BACKEND;
    history_retest_free(&r);
    harness_paths_free(&files);
    return rc;
}

static int cmd_retest_body(int argc, char **argv, const char **paths) {
    cmd_retest_options o;
    memset(&o, 0, sizeof o);
    cli_options_own own = {cmd_retest_longs, "", cmd_retest_take, &o};
    if (!cli_options_parse(argc, argv, true, &own, &o.common, paths)) {
        return CLI_EXIT_USAGE; /* said why */
    }
    if (o.common.n_paths == 0) {
        fprintf(stderr, "gmfuzz retest: give at least one folder or reproducer\n");
        return CLI_EXIT_USAGE;
    }
    return cmd_retest_run(&o);
}

int cmd_retest_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_retest_usage, cmd_retest_body);
}
