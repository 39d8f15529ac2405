/* gmfuzz bisect REPRO.json --repo DIR --good REV --bad REV --target T
 *     [--fixed] [--build 'COMMAND'] [--record FILE] [--json]
 *
 * The first commit of the target's repository where the reproducer's
 * bucket appears (--fixed: is gone), searched as git bisect does, each
 * revision in a worktree of its own (history/history.h, docs/BISECT.md).
 * Prints the commit (hash, subject, author date), the revisions tested
 * and skipped, and appends the record to REPRO.bisect.jsonl. */
#include "cmd_bisect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "harness.h"
#include "history.h"

static const char cmd_bisect_usage[] =
    "usage: gmfuzz bisect REPRO.json --repo DIR --good REV --bad REV --target T\n"
    "                     [--fixed] [--build 'COMMAND'] [--record FILE] [--json]\n"
    "  the first commit of the target's git repository where the reproducer's\n"
    "  bucket appears; each revision is checked out in a worktree of its own (the\n"
    "  work tree, HEAD, branch and index of DIR are never touched) and is either\n"
    "  reproduces, gone, or skipped (the build or the import fails), as git bisect\n"
    "  skip. The search is git's (rev-list --bisect-all)\n"
    "  --repo DIR              the target's git repository\n"
    "  --good REV, --bad REV   a revision where the finding does not reproduce, and\n"
    "                          one where it does\n"
    "  --fixed                 the first commit where it is gone instead (then --bad\n"
    "                          is the older end, --good the newer)\n"
    "  --target T              python:PATH[:FUNCTION] or lib:PATH.so, PATH relative\n"
    "                          to the repository's top, in each checkout\n"
    "  --build 'COMMAND'       a shell command run in each checkout first (lib:\n"
    "                          targets: it builds the library); failing: skipped\n"
    "  --record FILE           where the record goes (default REPRO.bisect.jsonl,\n"
    "                          one line appended per search)\n"
    "  --scratch DIR           where the checkouts go (default $TMPDIR or /tmp)\n"
    "  --json                  print the record instead of the text\n"
    "  --target-device D, --target-timeout S: as for every command\n"
    "  -h, --help              this text\n"
    "exit codes: 0 the commit found, 1 not one commit: it is one of the skipped\n"
    "revisions listed (or the end), 2 usage (an end is not a commit, or the ends are\n"
    "not in order), 3 the reproducer cannot be read or records no finding, 4 git or\n"
    "the record failed\n";

typedef struct {
    cli_options common;
    history_bisect_options b;
    const char *record;
} cmd_bisect_options;

enum {
    CMD_BISECT_REPO = 1000,
    CMD_BISECT_GOOD,
    CMD_BISECT_BAD,
    CMD_BISECT_FIXED,
    CMD_BISECT_BUILD,
    CMD_BISECT_RECORD,
    CMD_BISECT_SCRATCH
};
static const struct option cmd_bisect_longs[] = {
    {"repo", required_argument, NULL, CMD_BISECT_REPO},
    {"good", required_argument, NULL, CMD_BISECT_GOOD},
    {"bad", required_argument, NULL, CMD_BISECT_BAD},
    {"fixed", no_argument, NULL, CMD_BISECT_FIXED},
    {"build", required_argument, NULL, CMD_BISECT_BUILD},
    {"record", required_argument, NULL, CMD_BISECT_RECORD},
    {"scratch", required_argument, NULL, CMD_BISECT_SCRATCH},
    {NULL, 0, NULL, 0},
};

static int cmd_bisect_take(void *ctx, const cli_getopt_item *item) {
    cmd_bisect_options *o = ctx;
    const char **slots[] = {[CMD_BISECT_REPO - CMD_BISECT_REPO] = &o->b.repo,
                            [CMD_BISECT_GOOD - CMD_BISECT_REPO] = &o->b.good,
                            [CMD_BISECT_BAD - CMD_BISECT_REPO] = &o->b.bad,
                            [CMD_BISECT_FIXED - CMD_BISECT_REPO] = NULL,
                            [CMD_BISECT_BUILD - CMD_BISECT_REPO] = &o->b.build,
                            [CMD_BISECT_RECORD - CMD_BISECT_REPO] = &o->record,
                            [CMD_BISECT_SCRATCH - CMD_BISECT_REPO] = &o->b.scratch};
    int k = item->code - CMD_BISECT_REPO;
    if (k < 0 || k > CMD_BISECT_SCRATCH - CMD_BISECT_REPO) {
        return -1;
    }
    if (item->code == CMD_BISECT_FIXED) {
        o->b.kind = HISTORY_BISECT_FIXED;
    } else {
        *slots[k] = item->value;
    }
    return 1;
}

/* What the search needs that getopt cannot require. */
static bool cmd_bisect_check(const cmd_bisect_options *o) {
    const char *missing = o->common.n_paths != 1 ? "one REPRO.json"
                          : o->b.repo == NULL    ? "--repo DIR"
                          : o->b.good == NULL    ? "--good REV"
                          : o->b.bad == NULL     ? "--bad REV"
                          : !o->common.target_given ? "--target T"
                                                    : NULL;
    if (missing != NULL) {
        fprintf(stderr, "gmfuzz bisect: give %s (see gmfuzz bisect --help)\n", missing);
        return false;
    }
    const harness_target_spec *t = &o->common.target;
    bool external = t->kind == HARNESS_TARGET_PYTHON || t->kind == HARNESS_TARGET_LIB;
    if (!external || t->path[0] == '\0' || t->path[0] == '/') {
        fprintf(stderr, "gmfuzz bisect: --target takes python:PATH[:FUNCTION] or lib:PATH, "
                        "PATH relative to the repository\n");
        return false;
    }
    return true;
}

static void cmd_bisect_print_commit(const char *label, const history_commit *c) {
    printf("%s%s %s (%s)\n", label, c->hash, c->subject, c->date);
}

static void cmd_bisect_print(const history_bisect_result *r, const char *record) {
    const char *what = r->kind == HISTORY_BISECT_FIXED ? "fixed" : "introduced";
    printf("bucket: %s\n", r->recorded);
    if (r->found) {
        printf("first %s commit: ", what);
        cmd_bisect_print_commit("", &r->first);
    } else {
        printf("not one commit: the bucket was %s by one of these (the skipped ones "
               "could not be tested):\n", what);
        for (size_t i = 0; i < r->n_suspects; i++) {
            cmd_bisect_print_commit("  ", &r->suspects[i]);
        }
    }
    printf("%zu revisions tested, %zu skipped", r->tested, r->skipped);
    const char *sep = r->skipped > 0 ? ": " : "";
    for (size_t i = 0; i < r->n_steps; i++) {
        if (r->steps[i].result == HISTORY_REV_SKIPPED) {
            printf("%s%.12s", sep, r->steps[i].commit.hash);
            sep = ", ";
        }
    }
    printf("\nrecord: %s\n", record);
}

/* The record appended (and printed with --json). */
static bool cmd_bisect_record(const cmd_bisect_options *o, const history_bisect_result *r,
                              const char *path) {
    cJSON *doc = history_record_json(r, &o->b, o->common.paths[0]);
    gm_error err = {0};
    bool ok = doc != NULL && history_record_append(path, doc, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz bisect: %s\n", doc == NULL ? "out of memory" : err.msg);
    }
    char *text = ok && o->common.json ? cJSON_Print(doc) : NULL;
    if (text != NULL) {
        printf("%s\n", text);
    }
    cJSON_free(text);
    cJSON_Delete(doc);
    return ok;
}

static int cmd_bisect_run(cmd_bisect_options *o) {
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    if (!gm_json_read_file(o->common.paths[0], &o->common.limits, &doc, &err)) {
        fprintf(stderr, "gmfuzz bisect: %s\n", err.msg);
        return CLI_EXIT_INPUT;
    }
    o->b.target = o->common.target;
    o->b.progress = o->common.json ? stderr : stdout;
    char record[4200];
    history_record_path(o->common.paths[0], record, sizeof record);
    history_bisect_result r;
    int rc = CLI_EXIT_OK;
    if (!history_bisect_run(&o->b, &doc, &r, &err)) {
        fprintf(stderr, "gmfuzz bisect: %s\n", err.msg);
        rc = err.code == GM_ERR_FORMAT ? CLI_EXIT_INPUT
             : err.code == GM_ERR_USAGE ? CLI_EXIT_USAGE
                                        : CLI_EXIT_BACKEND;
    } else {
        const char *path = o->record != NULL ? o->record : record;
        if (!o->common.json) {
            cmd_bisect_print(&r, path);
        }
        rc = !cmd_bisect_record(o, &r, path) ? CLI_EXIT_BACKEND
             : r.found                       ? CLI_EXIT_OK
                                             : CLI_EXIT_FINDING;
    }
    history_bisect_result_free(&r);
    gm_doc_free(&doc);
    return rc;
}

static int cmd_bisect_body(int argc, char **argv, const char **paths) {
    cmd_bisect_options o;
    memset(&o, 0, sizeof o);
    cli_options_own own = {cmd_bisect_longs, "", cmd_bisect_take, &o};
    return cli_options_parse(argc, argv, true, &own, &o.common, paths) && cmd_bisect_check(&o)
               ? cmd_bisect_run(&o)
               : CLI_EXIT_USAGE;
}

int cmd_bisect_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_bisect_usage, cmd_bisect_body);
}
