/* gmfuzz minimize CASE.json -o REPRO.json [--baseline FILE] [--max-runs N]
 *     [--backend B] [--compare live|strict] [reader limits]
 *
 * Shrinks a failing case (a case, a vector's case or a reproducer's case)
 * keeping its signature (minimize/minimize.h), and writes the result as a
 * complete gmfuzz-repro-v1, checked by replaying it before the command
 * reports success. Its own flags and the shared ones (cli_options) are
 * parsed in one scan.
 *
 * Exit codes: 0 the reproducer is written; 1 the case shows no difference
 * (nothing to minimize, nothing written); 2 usage; 3 unreadable input or
 * baseline; 4 the backend failed, or the written reproducer did not replay.
 */
#include "cmd_minimize.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "cli_options.h"
#include "triage.h"
#include "minimize.h"
#include "harness.h"
#include "repro.h"

static const char cmd_minimize_usage[] =
    "usage: gmfuzz minimize CASE.json -o REPRO.json [--baseline FILE] [--max-runs N]\n"
    "                       [--target T | --backend B] [--compare live|strict]\n"
    "  shrinks a failing case, keeping its signature, into a complete reproducer\n"
    "  -o, --output FILE       the reproducer to write\n"
    "  --baseline FILE         the baseline whose decisions name the signature\n"
    "  --max-runs N            stop after N runs (default 0: no limit)\n"
    "  --compare L             live or strict (default: a reproducer's own level)\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 written, 1 no difference (nothing written), 2 usage, 3 unreadable\n"
    "input or baseline, 4 the backend failed or the reproducer did not replay\n";

typedef struct {
    cli_options common;
    const char *output;
    const char *baseline;
    size_t max_runs;      /* 0: no limit */
    bool compare_given;   /* else a reproducer's own level is used */
} cmd_minimize_options;

static bool cmd_minimize_runs(const char *text, size_t *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = text != NULL ? strtoull(text, &end, 10) : 0;
    if (text == NULL || errno != 0 || end == text || *end != '\0' || text[0] == '-') {
        fprintf(stderr, "gmfuzz minimize: --max-runs takes a number of runs (0: no limit)\n");
        return false;
    }
    *out = (size_t)v;
    return true;
}

/* minimize's own options, besides the shared ones. */
enum { CMD_MINIMIZE_BASELINE = 1000, CMD_MINIMIZE_MAX_RUNS };
static const struct option cmd_minimize_longs[] = {
    {"output", required_argument, NULL, 'o'},
    {"baseline", required_argument, NULL, CMD_MINIMIZE_BASELINE},
    {"max-runs", required_argument, NULL, CMD_MINIMIZE_MAX_RUNS},
    {NULL, 0, NULL, 0},
};

static bool cmd_minimize_own_flag(const char *flag) {
    return strcmp(flag, "-o") == 0 || strcmp(flag, "--output") == 0 ||
           strcmp(flag, "--baseline") == 0 || strcmp(flag, "--max-runs") == 0;
}

static int cmd_minimize_take(void *ctx, const cli_getopt_item *item) {
    cmd_minimize_options *o = ctx;
    switch (item->code) {
    case CLI_GETOPT_MISSING:
        if (!cmd_minimize_own_flag(item->flag)) {
            return -1;
        }
        fprintf(stderr, "gmfuzz minimize: %s needs a value\n", item->flag);
        return 0;
    case 'o':
        o->output = item->value;
        return 1;
    case CMD_MINIMIZE_BASELINE:
        o->baseline = item->value;
        return 1;
    case CMD_MINIMIZE_MAX_RUNS:
        return cmd_minimize_runs(item->value, &o->max_runs);
    default:
        return -1;
    }
}

static bool cmd_minimize_parse(int argc, char **argv, cmd_minimize_options *o,
                               const char **paths) {
    memset(o, 0, sizeof *o);
    cli_options_own own = {cmd_minimize_longs, "o:", cmd_minimize_take, o};
    if (!cli_options_parse(argc, argv, false, &own, &o->common, paths)) {
        return false;
    }
    o->compare_given = o->common.compare_given;
    if (o->common.n_paths != 1 || o->output == NULL) {
        fprintf(stderr, "gmfuzz minimize: takes one CASE.json and -o REPRO.json "
                        "(see gmfuzz --help)\n");
        return false;
    }
    return true;
}

static double cmd_minimize_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The reproducer's origin: the input reproducer's, or this command's. */
static repro_origin cmd_minimize_origin(const gm_doc *doc) {
    repro_origin origin = {"minimize", 0, true, NULL, NULL};
    if (doc->kind == GM_DOC_REPRO && doc->repro.has_found) {
        origin.found_by = doc->repro.found_by;
        origin.execs = doc->repro.found_execs;
        origin.found_at = doc->repro.found_at;
    }
    return origin;
}

static void cmd_minimize_print_sizes(const char *when, const gm_case *c) {
    printf("%s: bs %zu, pool %zu x %zu, max_context_len %d, mapping %zu, out_cache_loc %zu\n",
           when, c->bs, c->pool, c->width, (int)c->max_context_len,
           c->has_swa ? c->swa.mapping_len : 0,
           c->has_swa && c->swa.out_cache_loc != NULL ? c->swa.n_out : 0);
}

static void cmd_minimize_print_known(const cmd_minimize_options *o, const triage_baseline *known,
                                     const triage_finding *f) {
    if (known == NULL) {
        return;
    }
    printf("baseline %s: %s\n", o->baseline,
           triage_baseline_is_known(known, f) ? "known" : "NEW (not in the baseline)");
}

/* Reads the written reproducer back and replays it: what the command
 * promises, checked rather than assumed. */
static bool cmd_minimize_verify(harness_backend *b, const cmd_minimize_options *o) {
    gm_doc doc;
    gm_error err = {0};
    harness_replay_outcome outcome = {0};
    bool ok = gm_json_read_file(o->output, &o->common.limits, &doc, &err) &&
              harness_replay_doc(b, &doc, o->common.compare, &outcome, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz minimize: %s\n", err.msg);
    } else if (!outcome.passed) {
        fprintf(stderr, "gmfuzz minimize: %s does not replay: %s\n", o->output, outcome.message);
    }
    gm_doc_free(&doc);
    return ok && outcome.passed;
}

/* Minimizes doc's case for `target` and writes the reproducer. */
static int cmd_minimize_write(harness_backend *b, const cmd_minimize_options *o, gm_doc *doc,
                              gm_compare level, const triage_finding *target) {
    minimize_stats stats = {.max_runs = o->max_runs};
    gm_error err = {0};
    harness_run_result r;
    triage_finding f;
    harness_run_result_init(&r);
    double start = cmd_minimize_now();
    bool ok = minimize_case(b, level, target, &doc->c, &stats, &err) &&
              harness_run_case(b, &doc->c, level, &r, &err);
    double seconds = cmd_minimize_now() - start;
    if (ok) {
        triage_classify(&doc->c, &r, &f);
        repro_origin origin = cmd_minimize_origin(doc);
        origin.target = harness_backend_identity(b);
        ok = repro_write(o->output, &doc->c, &r, &f, harness_backend_kind_of(b), &origin, &err);
    }
    harness_run_result_free(&r);
    if (!ok) {
        fprintf(stderr, "gmfuzz minimize: %s\n", err.msg);
        return CLI_EXIT_BACKEND;
    }
    cmd_minimize_print_sizes("after", &doc->c);
    printf("%zu runs, %.2f s; signature %s\n", stats.runs, seconds, f.signature);
    if (!cmd_minimize_verify(b, o)) {
        return CLI_EXIT_BACKEND;
    }
    printf("wrote %s\n", o->output);
    return CLI_EXIT_OK;
}

/* Classifies the case as given, then minimizes it when it fails. */
static int cmd_minimize_doc(harness_backend *b, const cmd_minimize_options *o,
                            const triage_baseline *known, gm_doc *doc) {
    gm_compare level = o->common.compare;
    if (doc->kind == GM_DOC_REPRO && !o->compare_given) {
        level = doc->repro.verdict.compare;
    }
    harness_run_result r;
    triage_finding target;
    gm_error err = {0};
    harness_run_result_init(&r);
    bool ran = harness_run_case(b, &doc->c, level, &r, &err);
    if (ran) {
        triage_classify(&doc->c, &r, &target);
    }
    harness_run_result_free(&r);
    if (!ran) {
        fprintf(stderr, "gmfuzz minimize: %s: %s\n", o->common.paths[0], err.msg);
        return CLI_EXIT_BACKEND;
    }
    if (target.status == GM_STATUS_MATCH) {
        fprintf(stderr, "gmfuzz minimize: %s: the two sides match at %s: nothing to minimize\n",
                o->common.paths[0], gm_compare_name(level));
        return CLI_EXIT_FINDING;
    }
    printf("signature: %s (at %s)\n", target.signature, gm_compare_name(level));
    cmd_minimize_print_known(o, known, &target);
    cmd_minimize_print_sizes("before", &doc->c);
    return cmd_minimize_write(b, o, doc, level, &target);
}

static int cmd_minimize_run(const cmd_minimize_options *o) {
    gm_doc doc;
    gm_error err = {0};
    triage_baseline *known = NULL;
    harness_backend *b = NULL;
    int rc = CLI_EXIT_INPUT;
    if (!fuzz_casefile_read(o->common.paths[0], &o->common.limits, &doc, &err) ||
        (o->baseline != NULL && !triage_baseline_load(o->baseline, &known, &err))) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
    } else if (!cli_options_backend_for(&o->common, &doc, &b)) {
        rc = CLI_EXIT_BACKEND;
    } else {
        rc = cmd_minimize_doc(b, o, known, &doc);
    }
    harness_backend_close(b);
    triage_baseline_free(known);
    gm_doc_free(&doc);
    return rc;
}

static int cmd_minimize_body(int argc, char **argv, const char **paths) {
    cmd_minimize_options o;
    return cmd_minimize_parse(argc, argv, &o, paths) ? cmd_minimize_run(&o) : CLI_EXIT_USAGE;
}

int cmd_minimize_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_minimize_usage, cmd_minimize_body);
}
