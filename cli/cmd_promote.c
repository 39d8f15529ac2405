/* gmfuzz promote REPRO.json... [--corpus DIR] [--minimize] [--backend B]
 *     [reader limits]
 *
 * Adds reproducers to the regression corpus (export/export.h), each
 * file named after its bucket and signature the way a campaign names its
 * repros/ files (campaign_repro_slug of "<bucket>||<signature>"). One line
 * per reproducer:
 *
 *   added DIR/NAME.json: SIGNATURE (N bytes)
 *   replaced DIR/OLD.json (N bytes) by DIR/NAME.json (M bytes): SIGNATURE
 *   kept DIR/NAME.json (N bytes): it holds SIGNATURE; REPRO.json would take M bytes
 *   refused REPRO.json: WHY
 *
 * then "N added, N replaced, N kept, N refused".
 *
 * Exit codes: 0 every reproducer is in the corpus (added, replaced, or
 * already held by a file no larger); 1 one was refused; 2 usage; 3 a
 * reproducer or a corpus file could not be read; 4 the backend failed or
 * the corpus could not be written.
 */
#include "cmd_promote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign.h"
#include "cli_options.h"
#include "harness.h"
#include "export.h"
#include "gm_file.h"

static const char cmd_promote_usage[] =
    "usage: gmfuzz promote REPRO.json... [--corpus DIR] [--minimize] [--backend B]\n"
    "  adds reproducers to the regression corpus, one per signature, the smaller kept\n"
    "  --corpus DIR            the corpus folder (default corpus/regress/)\n"
    "  --minimize              minimize each reproducer first\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 all in the corpus, 1 one refused, 2 usage, 3 unreadable\n"
    "reproducer or corpus file, 4 the backend failed or the corpus is not writable\n";

typedef struct {
    cli_options common;
    const char *corpus;   /* NULL: export_promote_default_corpus() */
    bool minimize;
} cmd_promote_options;

typedef struct {
    size_t count[3];      /* by export_promote_action */
    size_t refused;
    int rc;
} cmd_promote_tally;

/* promote's own options, besides the shared ones. */
enum { CMD_PROMOTE_MINIMIZE = 1000, CMD_PROMOTE_CORPUS };
static const struct option cmd_promote_longs[] = {
    {"minimize", no_argument, NULL, CMD_PROMOTE_MINIMIZE},
    {"corpus", required_argument, NULL, CMD_PROMOTE_CORPUS},
    {NULL, 0, NULL, 0},
};

static int cmd_promote_take(void *ctx, const cli_getopt_item *item) {
    cmd_promote_options *o = ctx;
    if (item->code == CLI_GETOPT_MISSING && strcmp(item->flag, "--corpus") == 0) {
        fprintf(stderr, "gmfuzz promote: --corpus needs a folder\n");
        return 0;
    }
    if (item->code == CMD_PROMOTE_MINIMIZE) {
        o->minimize = true;
        return 1;
    }
    if (item->code == CMD_PROMOTE_CORPUS) {
        o->corpus = item->value;
        return 1;
    }
    return -1;
}

static bool cmd_promote_parse(int argc, char **argv, cmd_promote_options *o,
                              const char **paths) {
    memset(o, 0, sizeof *o);
    cli_options_own own = {cmd_promote_longs, "", cmd_promote_take, o};
    if (!cli_options_parse(argc, argv, false, &own, &o->common, paths)) {
        return false;
    }
    if (o->common.n_paths == 0) {
        fprintf(stderr, "gmfuzz promote: give at least one REPRO.json (see gmfuzz --help)\n");
        return false;
    }
    return true;
}

/* The corpus folder: --corpus (created when missing) or the default,
 * which must exist. */
static bool cmd_promote_corpus(const cmd_promote_options *o, const char **dir) {
    gm_error err = {0};
    struct stat st;
    if (o->corpus == NULL) {
        *dir = export_promote_default_corpus();
        if (stat(*dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "gmfuzz promote: the default corpus %s is missing; pass --corpus DIR\n",
                    *dir);
            return false;
        }
        return true;
    }
    *dir = o->corpus;
    if (!gm_file_make_dirs(*dir, &err)) {
        fprintf(stderr, "gmfuzz promote: --corpus: %s\n", err.msg);
        return false;
    }
    return true;
}

/* Keeps the more serious exit code: backend 4, input 3, refusal 1. */
static int cmd_promote_worse(int a, int b) {
    static const int rank[] = {[CLI_EXIT_OK] = 0, [CLI_EXIT_FINDING] = 1, [CLI_EXIT_USAGE] = 2,
                               [CLI_EXIT_INPUT] = 3, [CLI_EXIT_BACKEND] = 4};
    return rank[b] > rank[a] ? b : a;
}

static void cmd_promote_report(const char *path, const export_promote_candidate *cand,
                               const export_promote_result *res) {
    const char *sig = cand->finding.signature;
    switch (res->action) {
    case EXPORT_PROMOTE_ADDED:
        printf("added %s: %s (%ld bytes)\n", res->path, sig, res->bytes);
        break;
    case EXPORT_PROMOTE_REPLACED:
        printf("replaced %s (%ld bytes) by %s (%ld bytes): %s\n", res->other, res->other_bytes,
               res->path, res->bytes, sig);
        break;
    case EXPORT_PROMOTE_KEPT:
        printf("kept %s (%ld bytes): it holds %s; %s would take %ld bytes\n", res->path,
               res->bytes, sig, path, res->other_bytes);
        break;
    }
    if (cand->minimized_now) {
        printf("  (minimized here in %zu runs)\n", cand->minimize_runs);
    }
}

/* Prepares and commits one reproducer. */
static void cmd_promote_one(harness_backend *b, const export_promote_options *po, const char *corpus,
                            const char *path, cmd_promote_tally *t) {
    export_promote_candidate cand;
    export_promote_candidate_init(&cand);
    export_promote_result res;
    gm_error err = {0};
    char slug[TRIAGE_SIGNATURE_MAX], name[TRIAGE_SIGNATURE_MAX + 8];
    if (!export_promote_prepare(b, path, po, &cand, &err)) {
        fprintf(stderr, "gmfuzz promote: %s\n", err.msg);
        bool infra = err.code == GM_ERR_DEVICE || err.code == GM_ERR_MEMORY;
        t->rc = cmd_promote_worse(t->rc, infra ? CLI_EXIT_BACKEND : CLI_EXIT_INPUT);
    } else if (cand.refused) {
        printf("refused %s\n", cand.why);
        t->refused++;
        t->rc = cmd_promote_worse(t->rc, CLI_EXIT_FINDING);
    } else {
        /* bucket first, as a campaign names its repros/ files */
        char key[TRIAGE_BUCKET_MAX + TRIAGE_SIGNATURE_MAX + 4];
        snprintf(key, sizeof key, "%s||%s", cand.finding.bucket, cand.finding.signature);
        campaign_repro_slug(cand.finding.bucket[0] != '\0' ? key : cand.finding.signature, slug,
                            sizeof slug);
        snprintf(name, sizeof name, "%s.json", slug);
        if (export_promote_commit(&cand, harness_backend_kind_of(b), corpus, name, &po->limits, &res,
                                  &err)) {
            cmd_promote_report(path, &cand, &res);
            t->count[res.action]++;
        } else {
            fprintf(stderr, "gmfuzz promote: %s\n", err.msg);
            bool unreadable = err.code == GM_ERR_FORMAT || err.code == GM_ERR_LIMIT;
            t->rc = cmd_promote_worse(t->rc, unreadable ? CLI_EXIT_INPUT : CLI_EXIT_BACKEND);
        }
    }
    export_promote_candidate_free(&cand);
}

static int cmd_promote_run(const cmd_promote_options *o) {
    const char *corpus = NULL;
    if (!cmd_promote_corpus(o, &corpus)) {
        return CLI_EXIT_USAGE;
    }
    harness_backend *b = NULL;
    if (!cli_options_open_backend(&o->common, &b)) {
        return CLI_EXIT_BACKEND;
    }
    export_promote_options po = {o->minimize, 0, o->common.limits};
    cmd_promote_tally t = {{0, 0, 0}, 0, CLI_EXIT_OK};
    for (int i = 0; i < o->common.n_paths; i++) {
        cmd_promote_one(b, &po, corpus, o->common.paths[i], &t);
        fflush(stdout);
    }
    harness_backend_close(b);
    printf("%zu added, %zu replaced, %zu kept, %zu refused\n", t.count[EXPORT_PROMOTE_ADDED],
           t.count[EXPORT_PROMOTE_REPLACED], t.count[EXPORT_PROMOTE_KEPT], t.refused);
    return t.rc;
}

static int cmd_promote_body(int argc, char **argv, const char **paths) {
    cmd_promote_options o;
    return cmd_promote_parse(argc, argv, &o, paths) ? cmd_promote_run(&o) : CLI_EXIT_USAGE;
}

int cmd_promote_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_promote_usage, cmd_promote_body);
}
