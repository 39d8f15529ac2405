/* harness_paths: the folder walk gives a folder's *.json files sorted by
 * path, skips hidden names, takes a symbolic link to a *.json file, never
 * follows a link into a folder (a loop back to the root, a link to a folder
 * elsewhere), and names a path that does not exist.
 *
 *   test_paths SCRATCH_DIR     (under the build tree; made afresh) */
#define _XOPEN_SOURCE 700 /* symlink, nftw */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm_test.h"
#include "harness.h"
#include "gm_file.h"

static char root[1024];

#define CHECK_SAME(got, want)                                                              \
    do {                                                                                   \
        CHECK(strcmp((got), (want)) == 0);                                                 \
        if (strcmp((got), (want)) != 0) {                                                  \
            fprintf(stderr, "got:\n%swant:\n%s", (got), (want));                           \
        }                                                                                  \
    } while (0)

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

static void touch(const char *rel) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("{}\n", f);
        fclose(f);
    }
}

static void make_dir(const char *rel) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    gm_error err = {0};
    CHECK(gm_file_make_dirs(path, &err));
}

static void link_to(const char *target, const char *rel) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    CHECK(symlink(target, path) == 0);
}

/* The walk of `rel` as paths relative to the root, one a line. */
static void walk(const char *rel, char *out, size_t size) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    harness_paths p;
    harness_paths_init(&p);
    gm_error err = {0};
    CHECK(harness_paths_add(&p, path, &err));
    out[0] = '\0';
    size_t at = 0, skip = strlen(root) + 1;
    for (size_t i = 0; i < p.count && at < size; i++) {
        at += (size_t)snprintf(out + at, size - at, "%s\n", p.items[i] + skip);
    }
    harness_paths_free(&p);
}

/* tree/
 *   b.json, a.json, notes.txt, .hidden.json, .cache/c.json (hidden folder)
 *   sub/z.json, sub/deeper/y.json
 *   loop -> .            (a loop back to the folder itself)
 *   up -> ..             (a loop through the parent)
 *   elsewhere -> ../other   (a folder outside the tree, holding x.json)
 *   linked.json -> ../other/x.json   (a link to a file: taken)
 *   dangling.json -> ../missing.json (a link to nothing: left out) */
static void test_walk_sorted_physical(void) {
    make_dir("tree/sub/deeper");
    make_dir("tree/.cache");
    make_dir("other");
    touch("tree/b.json");
    touch("tree/a.json");
    touch("tree/notes.txt");
    touch("tree/.hidden.json");
    touch("tree/.cache/c.json");
    touch("tree/sub/z.json");
    touch("tree/sub/deeper/y.json");
    touch("other/x.json");
    link_to(".", "tree/loop");
    link_to("..", "tree/up");
    link_to("../other", "tree/elsewhere");
    link_to("../other/x.json", "tree/linked.json");
    link_to("../missing.json", "tree/dangling.json");
    char got[4096];
    walk("tree", got, sizeof got);
    CHECK_SAME(got, "tree/a.json\ntree/b.json\ntree/linked.json\ntree/sub/deeper/y.json\n"
                    "tree/sub/z.json\n");
}

/* A file is taken as it is, whatever its name; a folder named directly
 * through a link is walked (only links met inside the walk are not). */
static void test_files_and_root_link(void) {
    char got[4096];
    walk("tree/notes.txt", got, sizeof got);
    CHECK_SAME(got, "tree/notes.txt\n");
    walk("tree/elsewhere", got, sizeof got);
    CHECK_SAME(got, "tree/elsewhere/x.json\n");
}

static void test_missing_is_named(void) {
    char path[1200];
    snprintf(path, sizeof path, "%s/tree/absent", root);
    harness_paths p;
    harness_paths_init(&p);
    gm_error err = {0};
    CHECK(!harness_paths_add(&p, path, &err));
    CHECK_STR_CONTAINS(err.msg, "tree/absent: No such file or directory");
    CHECK_EQ_I64(p.count, 0);
    harness_paths_free(&p);
}

int main(int argc, char **argv) {
    if (argc != 2 || snprintf(root, sizeof root, "%s", argv[1]) >= (int)sizeof root) {
        fprintf(stderr, "usage: test_paths SCRATCH_DIR\n");
        return 2;
    }
    if (nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT) {
        fprintf(stderr, "%s: cannot clear: %s\n", root, strerror(errno));
        return 1;
    }
    GM_RUN(test_walk_sorted_physical);
    GM_RUN(test_files_and_root_link);
    GM_RUN(test_missing_is_named);
    GM_TEST_END();
}
