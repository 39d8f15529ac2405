/* gm_file: an atomic write publishes the whole new file or leaves the old
 * one, and leaves no temporary file behind either way. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_file.h"
#include "gm_test.h"

static char dir[1024];

static char *slurp(const char *path) {
    static char buf[256];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    buf[n] = '\0';
    return buf;
}

/* Files in the folder besides `keep`: a temporary file left behind. */
static int strays(const char *keep) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.' && strcmp(e->d_name, keep) != 0;
    }
    if (d) {
        closedir(d);
    }
    return n;
}

static void test_parts_committed(void) {
    char path[1100];
    snprintf(path, sizeof path, "%s/doc.txt", dir);
    gm_error err = {0};
    CHECK(gm_file_write_atomic(path, "old", 3, &err));
    gm_file_atomic a;
    CHECK(gm_file_atomic_begin(&a, path, &err));
    fputs("new ", a.f);
    fputs("file", a.f);
    CHECK(strcmp(slurp(path), "old") == 0); /* nothing shows before the commit */
    CHECK(gm_file_atomic_commit(&a, &err));
    CHECK(strcmp(slurp(path), "new file") == 0);
    CHECK_EQ_I64(strays("doc.txt"), 0);
}

static void test_aborted_keeps_the_old_file(void) {
    char path[1100];
    snprintf(path, sizeof path, "%s/doc.txt", dir);
    gm_error err = {0};
    CHECK(gm_file_write_atomic(path, "kept", 4, &err));
    gm_file_atomic a;
    CHECK(gm_file_atomic_begin(&a, path, &err));
    fputs("half", a.f);
    gm_file_atomic_abort(&a);
    CHECK(strcmp(slurp(path), "kept") == 0);
    CHECK_EQ_I64(strays("doc.txt"), 0);
}

static void test_missing_folder_named(void) {
    char path[1100];
    snprintf(path, sizeof path, "%s/no-such-folder/doc.txt", dir);
    gm_error err = {0};
    gm_file_atomic a;
    CHECK(!gm_file_atomic_begin(&a, path, &err));
    CHECK(strstr(err.msg, "no-such-folder/doc.txt") != NULL);
    CHECK(strstr(err.msg, "cannot create") != NULL);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_file WORK_DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    mkdir(dir, 0777);
    char stale[1100];
    snprintf(stale, sizeof stale, "%s/doc.txt", dir);
    remove(stale);
    GM_RUN(test_parts_committed);
    GM_RUN(test_aborted_keeps_the_old_file);
    GM_RUN(test_missing_folder_named);
    GM_TEST_END();
}
