/* gmfuzz run CASE.json: both sides on one case, and the verdict. */
#include "cmd_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "cli_options.h"
#include "harness.h"

static const char cmd_run_usage[] =
    "usage: gmfuzz run CASE.json [--target T | --backend B] [--compare live|strict] [--json]\n"
    "                  [--raw]\n"
    "  runs the reference and the fused kernel on one case (a vector or a\n"
    "  reproducer: its case) and prints the verdict\n"
    "  --raw                   CASE is an engine's raw input (a libFuzzer or AFL++ crash\n"
    "                          file), decoded to its case; without it only a file whose\n"
    "                          bytes cannot start a JSON document and whose name does\n"
    "                          not end in .json is one, anything else is read as JSON\n"
    "  --compare L             live (default) or strict\n"
    "  --json                  print one object {\"reference\", \"fused\", \"verdict\"}\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 match, 1 any other verdict, 2 usage, 3 unreadable or malformed\n"
    "case, 4 the backend failed\n";

static void cmd_run_print_text(const gm_doc *doc, const harness_backend *b, const harness_run_result *r) {
    const gm_case *c = &doc->c;
    printf("case: %s (mode %s, bs %zu, page_size %d, max_num_pages %zu, swa %s)\n",
           c->name ? c->name : "(unnamed)", gm_mode_name(c->mode), c->bs, (int)c->page_size,
           gm_case_max_num_pages(c), c->has_swa ? "yes" : "no");
    printf("reference: %s\n", r->reference.error ? r->reference.error : "ok");
    char target[HARNESS_TARGET_PATH_MAX + 200];
    harness_target_format(harness_backend_spec(b), target, sizeof target);
    printf("fused (%s): %s\n", target, r->fused.error ? r->fused.error : "ok");
    harness_backend_unreliable u = harness_backend_unreliable_counts(b);
    if (u.crashed + u.hung > 0) {
        printf("unreliable: the target %s the first time, not again on a fresh worker (not a "
               "finding; the verdict is the second run's)\n",
               u.hung > 0 ? "hung" : "crashed");
    }
    if (r->drift[0] != '\0') {
        printf("reference drift: %s\n", r->drift);
    }
    const gm_verdict *v = &r->verdict;
    char line[256];
    gm_verdict_describe(v, line, sizeof line);
    printf("verdict: %s", line);
    if (v->status == GM_STATUS_MISMATCH) {
        if (v->first.present) {
            printf("; first %s[%zu]", gm_buf_name(v->first.buf), v->first.index[0]);
            if (v->first.rank == 2) {
                printf("[%zu]", v->first.index[1]);
            }
            printf(": reference %" PRId64 ", fused %" PRId64, v->first.reference, v->first.fused);
        }
    }
    printf("\n");
}

static bool cmd_run_print_json(const harness_run_result *r) {
    cJSON *root = cJSON_CreateObject();
    if (root == NULL) {
        return false;
    }
    cJSON_AddItemToObject(root, "reference", gm_json_outputs(&r->reference));
    cJSON_AddItemToObject(root, "fused", gm_json_outputs(&r->fused));
    cJSON_AddItemToObject(root, "verdict", gm_json_verdict(&r->verdict));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (text == NULL) {
        return false;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return true;
}

static int cmd_run_case(const cli_options *o, bool raw) {
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    if (!(raw ? fuzz_casefile_read_raw(o->paths[0], &doc, &err)
              : fuzz_casefile_read(o->paths[0], &o->limits, &doc, &err))) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        gm_doc_free(&doc);
        return CLI_EXIT_INPUT;
    }
    harness_backend *b = NULL;
    harness_run_legacy *legacy = NULL;
    if (!cli_options_backend_for(o, &doc, &b) || !cli_options_open_reference(o, &legacy)) {
        harness_backend_close(b);
        gm_doc_free(&doc);
        return CLI_EXIT_BACKEND;
    }
    harness_run_result r;
    harness_run_result_init(&r);
    int rc = CLI_EXIT_BACKEND;
    if (!harness_run_case3(b, legacy, &doc.c, o->compare, &r, &err)) {
        fprintf(stderr, "gmfuzz: %s: %s\n", o->paths[0], err.msg);
    } else if (o->json && !cmd_run_print_json(&r)) {
        fprintf(stderr, "gmfuzz: out of memory printing the result\n");
    } else {
        if (!o->json) {
            cmd_run_print_text(&doc, b, &r);
        }
        rc = r.verdict.status == GM_STATUS_MATCH ? CLI_EXIT_OK : CLI_EXIT_FINDING;
    }
    harness_run_result_free(&r);
    harness_run_legacy_close(legacy);
    harness_backend_close(b);
    gm_doc_free(&doc);
    return rc;
}

/* run's own option, besides the shared ones. */
enum { CMD_RUN_RAW = 1000 };
static const struct option cmd_run_longs[] = {
    {"raw", no_argument, NULL, CMD_RUN_RAW},
    {NULL, 0, NULL, 0},
};

static int cmd_run_take(void *ctx, const cli_getopt_item *item) {
    if (item->code != CMD_RUN_RAW) {
        return -1;
    }
    *(bool *)ctx = true;
    return 1;
}

static int cmd_run_body(int argc, char **argv, const char **paths) {
    cli_options o;
    bool raw = false;
    cli_options_own own = {cmd_run_longs, "", cmd_run_take, &raw};
    if (!cli_options_parse(argc, argv, true, &own, &o, paths)) {
        return CLI_EXIT_USAGE; /* cli_options_parse said why */
    }
    if (o.n_paths != 1) {
        fprintf(stderr, "gmfuzz run: takes exactly one CASE.json (see gmfuzz --help)\n");
        return CLI_EXIT_USAGE;
    }
    return cmd_run_case(&o, raw);
}

int cmd_run_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_run_usage, cmd_run_body);
}
