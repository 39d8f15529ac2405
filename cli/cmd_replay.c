/* gmfuzz replay PATH... [--exact]: every case, vector and reproducer found,
 * run again and checked against what it records (harness/harness.h). One
 * line per failure, then "N passed, N failed". A reproducer must also
 * record the signature and classes the classifier gives it (repro.h).
 * With --exact a reproducer must also be written again byte for byte
 * (repro/repro.h). */
#include "cmd_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repro.h"
#include "cli_options.h"
#include "harness.h"

static const char cmd_replay_usage[] =
    "usage: gmfuzz replay PATH... [--exact] [--target T | --backend B] [--compare live|strict]\n"
    "  replays cases, conformance vectors and reproducers (files, or folders\n"
    "  searched for *.json) and checks each against what it records; a\n"
    "  reproducer's signature and classes are computed again and must equal\n"
    "  the recorded ones. One FAIL line per failure, then 'N passed, N failed'\n"
    "  --exact                 a reproducer must also be rewritten byte for byte\n"
    "  --compare L             the level for cases (default live)\n"
    CLI_OPTIONS_TARGET_HELP
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 every document passed, 1 one failed (or could not be read),\n"
    "2 usage, 4 the backend failed, 5 no document found\n";

typedef struct {
    size_t passed;
    size_t failed;
} cmd_replay_tally;

/* Appends `text` to the string in buf[size], cutting it where it is full. */
static void cmd_replay_append(char *buf, size_t size, const char *text) {
    size_t used = strlen(buf), n = strlen(text);
    if (n > size - used - 1) {
        n = size - used - 1;
    }
    memcpy(buf + used, text, n);
    buf[used + n] = '\0';
}

/* --exact: whether a reproducer is also rewritten byte for byte; where it
 * is not, the first differing byte and field join the replay's message.
 * False only when the backend itself failed. */
static bool cmd_replay_exact(harness_backend *b, const cli_options *o, const char *path,
                             const gm_doc *doc, harness_replay_outcome *outcome, gm_error *err) {
    repro_rewrite_outcome rewrite = {0};
    if (doc->kind != GM_DOC_REPRO) {
        return true;
    }
    if (!repro_rewrite_check(b, path, doc, &o->limits, &rewrite, err)) {
        return false;
    }
    if (!rewrite.same) {
        if (outcome->passed) {
            outcome->message[0] = '\0';
        } else {
            cmd_replay_append(outcome->message, sizeof outcome->message, "; ");
        }
        cmd_replay_append(outcome->message, sizeof outcome->message, "not byte-stable: ");
        cmd_replay_append(outcome->message, sizeof outcome->message, rewrite.message);
        outcome->passed = false;
    }
    return true;
}

/* Replays one file on its target (cli_options_backend_for: `*bp` kept
 * between files); false only when the backend itself failed. */
static bool cmd_replay_file(harness_backend **bp, harness_run_legacy *legacy, const cli_options *o, bool exact,
                            const char *path, cmd_replay_tally *t) {
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    harness_replay_outcome outcome = {0};
    bool backend_ok = true;
    bool read = gm_json_read_file(path, &o->limits, &doc, &err);
    if (read && !cli_options_backend_for(o, &doc, bp)) {
        gm_doc_free(&doc);
        return false;
    }
    harness_backend *b = *bp;
    if (b != NULL) {
        harness_backend_set_legacy(b, legacy); /* --exact's rewrite runs three-way too */
    }
    if (!read) {
        printf("FAIL %s\n", err.msg); /* the message starts with the path */
        t->failed++;
    } else if (!harness_replay_doc3(b, legacy, &doc, o->compare, &outcome, &err) ||
               (exact && !cmd_replay_exact(b, o, path, &doc, &outcome, &err))) {
        fprintf(stderr, "gmfuzz: %s: %s\n", path, err.msg);
        backend_ok = false;
    } else if (!outcome.passed) {
        printf("FAIL %s: %s\n", path, outcome.message);
        t->failed++;
    } else if (!repro_check(&doc, NULL, outcome.message, sizeof outcome.message)) {
        printf("FAIL %s: %s\n", path, outcome.message);
        t->failed++;
    } else {
        t->passed++;
    }
    gm_doc_free(&doc);
    return backend_ok;
}

static int cmd_replay_all(const cli_options *o, bool exact, const harness_paths *files) {
    cmd_replay_tally t = {0, 0};
    harness_backend *b = NULL;
    harness_run_legacy *legacy = NULL;
    bool ok = cli_options_open_reference(o, &legacy);
    for (size_t i = 0; ok && i < files->count; i++) {
        ok = cmd_replay_file(&b, legacy, o, exact, files->items[i], &t);
        fflush(stdout);
    }
    harness_backend_close(b);
    harness_run_legacy_close(legacy);
    if (!ok) {
        return CLI_EXIT_BACKEND;
    }
    printf("%zu passed, %zu failed\n", t.passed, t.failed);
    return t.failed == 0 ? CLI_EXIT_OK : CLI_EXIT_FINDING;
}

/* replay's own option, besides the shared ones. */
enum { CMD_REPLAY_EXACT = 1000 };
static const struct option cmd_replay_longs[] = {
    {"exact", no_argument, NULL, CMD_REPLAY_EXACT},
    {NULL, 0, NULL, 0},
};

static int cmd_replay_take(void *ctx, const cli_getopt_item *item) {
    if (item->code != CMD_REPLAY_EXACT) {
        return -1;
    }
    *(bool *)ctx = true;
    return 1;
}

static int cmd_replay_body(int argc, char **argv, const char **paths) {
    bool exact = false;
    cli_options o;
    cli_options_own own = {cmd_replay_longs, "", cmd_replay_take, &exact};
    if (!cli_options_parse(argc, argv, false, &own, &o, paths)) {
        return CLI_EXIT_USAGE;
    }
    if (o.n_paths == 0) {
        fprintf(stderr, "gmfuzz replay: give at least one file or folder\n");
        return CLI_EXIT_USAGE;
    }
    harness_paths files;
    harness_paths_init(&files);
    gm_error err = {0};
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < o.n_paths && rc == CLI_EXIT_OK; i++) {
        if (!harness_paths_add(&files, o.paths[i], &err)) {
            fprintf(stderr, "gmfuzz: %s\n", err.msg);
            rc = CLI_EXIT_USAGE;
        }
    }
    if (rc == CLI_EXIT_OK && files.count == 0) {
        /* Nothing replayed is not a pass (pytest's 5: no tests collected). */
        fprintf(stderr, "gmfuzz replay: no document found: no *.json file in %s%s\n",
                o.paths[0], o.n_paths > 1 ? " or the other paths" : "");
        rc = CLI_EXIT_NO_DOCUMENTS;
    } else if (rc == CLI_EXIT_OK) {
        rc = cmd_replay_all(&o, exact, &files);
    }
    harness_paths_free(&files);
    return rc;
}

int cmd_replay_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_replay_usage, cmd_replay_body);
}
