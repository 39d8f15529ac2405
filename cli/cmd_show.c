/* gmfuzz show DOC.json [--max N] [--backend B] [--compare live|strict]
 *     [reader limits]
 *
 * One document for a person triaging it: the case in a few lines
 * (export/export_show_case.h), then the verdict, the signature and its classes,
 * and the differing elements side by side, reference vs fused, each with
 * its class (export/export_show.h).
 *
 * A reproducer or a conformance vector records both sides' outputs: those
 * are shown, and the case is run again on the backend (default cpu) to say
 * whether this build still gives what the file records. A plain case
 * records nothing: it is run, and that run is shown. A reproducer is
 * judged at the level it records, anything else at --compare.
 *
 * A reproducer of a drift (three-way, docs/FORMATS.md "torch_reference")
 * shows both references' buffers side by side and its drift bucket, and is
 * re-run three-way (--reference, default python:).
 *
 * Exit codes: 0 shown; 1 shown, but the re-run disagrees with the
 * recording; 2 usage; 3 unreadable document; 4 the backend failed.
 */
#include "cmd_show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro.h"
#include "fuzz.h"
#include "cli_options.h"
#include "harness.h"
#include "export.h"

#define CMD_SHOW_DEFAULT_MAX 20

static const char cmd_show_usage[] =
    "usage: gmfuzz show DOC.json [--max N] [--raw] [--backend B] [--compare live|strict]\n"
    "  the case in a few lines, the verdict, the signature, and the differing\n"
    "  elements side by side (reference, fused, class of each)\n"
    "  DOC.json     a reproducer or a conformance vector (their recorded outputs\n"
    "               are shown, and the case is re-run to check them), or a case\n"
    "               (it is run)\n"
    "  --max N      list at most N differing elements (default 20)\n"
    "  --raw        DOC is an engine's raw input (else only a file whose bytes\n"
    "               cannot start a JSON document and whose name does not end\n"
    "               in .json is one)\n"
    "  --backend B  where the fused kernel re-runs (default cpu)\n"
    "  --compare L  the level for cases and vectors (default live); a reproducer\n"
    "               uses the level it records\n"
    "  -h, --help   this text\n"
    "exit codes: 0 shown, 1 the re-run disagrees with the recording, 2 usage,\n"
    "3 unreadable document, 4 the backend failed\n";

typedef struct {
    cli_options common;
    size_t max_rows;
    bool raw; /* --raw: the file is an engine's input */
} cmd_show_options;

static bool cmd_show_max(const char *text, size_t *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = text != NULL ? strtoull(text, &end, 10) : 0;
    if (text == NULL || errno != 0 || end == text || *end != '\0' || text[0] == '-' ||
        v > (1u << 30)) {
        fprintf(stderr, "gmfuzz show: --max takes a number of rows\n");
        return false;
    }
    *out = (size_t)v;
    return true;
}

/* show's own option, besides the shared ones. */
enum { CMD_SHOW_MAX = 1000, CMD_SHOW_RAW };
static const struct option cmd_show_longs[] = {
    {"max", required_argument, NULL, CMD_SHOW_MAX},
    {"raw", no_argument, NULL, CMD_SHOW_RAW},
    {NULL, 0, NULL, 0},
};

static int cmd_show_take(void *ctx, const cli_getopt_item *item) {
    cmd_show_options *o = ctx;
    if (item->code == CMD_SHOW_RAW) {
        o->raw = true;
        return 1;
    }
    bool missing_max = item->code == CLI_GETOPT_MISSING && strcmp(item->flag, "--max") == 0;
    if (item->code != CMD_SHOW_MAX && !missing_max) {
        return -1;
    }
    return cmd_show_max(item->value, &o->max_rows);
}

static bool cmd_show_parse(int argc, char **argv, cmd_show_options *o, const char **paths) {
    memset(o, 0, sizeof *o);
    o->max_rows = CMD_SHOW_DEFAULT_MAX;
    cli_options_own own = {cmd_show_longs, "", cmd_show_take, o};
    if (!cli_options_parse(argc, argv, false, &own, &o->common, paths)) {
        return false;
    }
    if (o->common.n_paths != 1) {
        fprintf(stderr, "gmfuzz show: takes one REPRO.json (or a case or vector; see gmfuzz "
                        "--help)\n");
        return false;
    }
    return true;
}

/* What the file records, in a line or two. */
static void cmd_show_recording(const gm_doc *doc) {
    const gm_repro *rp = &doc->repro;
    if (doc->kind == GM_DOC_VECTOR) {
        puts("recorded: the real legacy and fused implementations' outputs (conformance vector)");
        return;
    }
    printf("recorded: %s backend, %s comparison, %s, %sminimized\n", rp->backend,
           gm_compare_name(rp->verdict.compare), rp->tool_version,
           rp->minimized ? "" : "not ");
    if (rp->has_found) {
        printf("found by %s at %s after %" PRIu64 " execs\n", rp->found_by, rp->found_at,
               rp->found_execs);
    }
}

/* The torch reference a re-run needs: --reference, or for a reproducer of
 * a drift (it carries torch's outputs) the default one, python:; NULL when
 * none is asked for or it cannot start (said so). */
static harness_run_legacy *cmd_show_reference(const cmd_show_options *o, const gm_doc *doc) {
    harness_run_legacy *legacy = NULL;
    gm_error err = {0};
    bool drift = doc->kind == GM_DOC_REPRO && doc->repro.has_torch;
    if (o->common.reference != NULL) {
        cli_options_open_reference(&o->common, &legacy);
    } else if (drift && !harness_run_legacy_open("python:", false, 60.0, &legacy, &err)) {
        printf("(the torch reference cannot start, so the re-run is two-way: %s)\n", err.msg);
    }
    return legacy;
}

/* Runs the recorded document again: does this build give what it records? */
static int cmd_show_rerun(harness_backend *b, const cmd_show_options *o, const gm_doc *doc,
                          gm_compare level) {
    harness_replay_outcome outcome = {0};
    gm_error err = {0};
    const char *name = harness_target_backend_name(harness_backend_kind_of(b));
    harness_run_legacy *legacy = cmd_show_reference(o, doc);
    bool ran = harness_replay_doc3(b, legacy, doc, level, &outcome, &err);
    harness_run_legacy_close(legacy);
    if (!ran) {
        fprintf(stderr, "gmfuzz show: %s\n", err.msg);
        return CLI_EXIT_BACKEND;
    }
    if (!outcome.passed || !repro_check(doc, NULL, outcome.message, sizeof outcome.message)) {
        printf("re-run on %s: DISAGREES with the recording: %s\n", name, outcome.message);
        return CLI_EXIT_FINDING;
    }
    printf("re-run on %s: agrees with the recording\n", name);
    return CLI_EXIT_OK;
}

/* The result to show (recorded, or this run's for a plain case), and the
 * exit code so far. */
static int cmd_show_result_of(harness_backend *b, const cmd_show_options *o, const gm_doc *doc,
                              harness_run_result *r) {
    gm_error err = {0};
    gm_compare level = doc->kind == GM_DOC_REPRO ? doc->repro.verdict.compare : o->common.compare;
    if (doc->kind == GM_DOC_CASE) {
        if (!harness_run_case(b, &doc->c, level, r, &err)) {
            fprintf(stderr, "gmfuzz show: %s: %s\n", o->common.paths[0], err.msg);
            return CLI_EXIT_BACKEND;
        }
        printf("ran on %s (a case records no outputs)\n",
               harness_target_backend_name(harness_backend_kind_of(b)));
        return CLI_EXIT_OK;
    }
    cmd_show_recording(doc);
    int rc = cmd_show_rerun(b, o, doc, level);
    if (rc != CLI_EXIT_BACKEND && !export_show_recorded(doc, level, r, &err)) {
        fprintf(stderr, "gmfuzz show: %s\n", err.msg);
        return CLI_EXIT_BACKEND;
    }
    return rc;
}

static int cmd_show_doc(harness_backend *b, const cmd_show_options *o, const gm_doc *doc) {
    harness_run_result r;
    gm_error err = {0};
    harness_run_result_init(&r);
    printf("%s: %s\n", o->common.paths[0], gm_doc_kind_name(doc->kind));
    export_show_case(stdout, &doc->c);
    int rc = cmd_show_result_of(b, o, doc, &r);
    if (rc != CLI_EXIT_BACKEND && !export_show_result(stdout, &doc->c, &r, o->max_rows, &err)) {
        fprintf(stderr, "gmfuzz show: %s\n", err.msg);
        rc = CLI_EXIT_BACKEND;
    }
    harness_run_result_free(&r);
    return rc;
}

static int cmd_show_run(const cmd_show_options *o) {
    gm_doc doc;
    gm_error err = {0};
    harness_backend *b = NULL;
    int rc = CLI_EXIT_INPUT;
    gm_doc_init(&doc);
    const char *path = o->common.paths[0];
    if (!(o->raw ? fuzz_casefile_read_raw(path, &doc, &err)
                 : fuzz_casefile_read(path, &o->common.limits, &doc, &err))) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
    } else if (!cli_options_backend_for(&o->common, &doc, &b)) {
        rc = CLI_EXIT_BACKEND;
    } else {
        rc = cmd_show_doc(b, o, &doc);
    }
    harness_backend_close(b);
    gm_doc_free(&doc);
    return rc;
}

static int cmd_show_body(int argc, char **argv, const char **paths) {
    cmd_show_options o;
    return cmd_show_parse(argc, argv, &o, paths) ? cmd_show_run(&o) : CLI_EXIT_USAGE;
}

int cmd_show_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_show_usage, cmd_show_body);
}
