/* gmfuzz replay PATH...: every case, vector and reproducer found, run again
 * and checked against what it records (harness/gm_replay.h). One line per
 * failure, then "N passed, N failed". */
#include "cmd_replay.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli_options.h"
#include "gm_paths.h"
#include "gm_replay.h"

typedef struct {
    size_t passed;
    size_t failed;
} cmd_replay_tally;

/* Replays one file; false only when the backend itself failed. */
static bool cmd_replay_file(gm_backend *b, const cli_options *o, const char *path,
                            cmd_replay_tally *t) {
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    gm_replay_outcome outcome = {0};
    bool backend_ok = true;
    if (!gm_json_read_file(path, &o->limits, &doc, &err)) {
        printf("FAIL %s\n", err.msg); /* the message starts with the path */
        t->failed++;
    } else if (!gm_replay_doc(b, &doc, o->compare, &outcome, &err)) {
        fprintf(stderr, "gmfuzz: %s: %s\n", path, err.msg);
        backend_ok = false;
    } else if (!outcome.passed) {
        printf("FAIL %s: %s\n", path, outcome.message);
        t->failed++;
    } else {
        t->passed++;
    }
    gm_doc_free(&doc);
    return backend_ok;
}

static int cmd_replay_all(gm_backend *b, const cli_options *o, const gm_paths *files) {
    cmd_replay_tally t = {0, 0};
    for (size_t i = 0; i < files->count; i++) {
        if (!cmd_replay_file(b, o, files->items[i], &t)) {
            return CLI_EXIT_BACKEND;
        }
        fflush(stdout);
    }
    printf("%zu passed, %zu failed\n", t.passed, t.failed);
    return t.failed == 0 ? CLI_EXIT_OK : CLI_EXIT_FINDING;
}

int cmd_replay_main(int argc, char **argv) {
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    if (paths == NULL) {
        return CLI_EXIT_BACKEND;
    }
    cli_options o;
    if (!cli_options_parse(argc, argv, 1, false, &o, paths)) {
        free(paths);
        return CLI_EXIT_USAGE;
    }
    if (o.n_paths == 0) {
        fprintf(stderr, "gmfuzz replay: give at least one file or folder\n");
        free(paths);
        return CLI_EXIT_USAGE;
    }
    gm_paths files;
    gm_paths_init(&files);
    gm_error err = {0};
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < o.n_paths && rc == CLI_EXIT_OK; i++) {
        if (!gm_paths_add(&files, o.paths[i], &err)) {
            fprintf(stderr, "gmfuzz: %s\n", err.msg);
            rc = CLI_EXIT_USAGE;
        }
    }
    gm_backend *b = NULL;
    if (rc == CLI_EXIT_OK) {
        rc = cli_options_open_backend(&o, &b) ? cmd_replay_all(b, &o, &files) : CLI_EXIT_BACKEND;
    }
    gm_backend_close(b);
    gm_paths_free(&files);
    free(paths);
    return rc;
}
