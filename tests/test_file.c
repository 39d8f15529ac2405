/* gm_file: an atomic write publishes the whole new file or leaves the old
 * one, and leaves no temporary file behind either way; a FIFO or a device
 * at the path is written in place, never replaced by a regular file. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Temporary files beside `name` (NAME.tmp.PID). */
static int temporaries(const char *name) {
    DIR *d = opendir(dir);
    int n = 0;
    size_t len = strlen(name);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        n += strncmp(e->d_name, name, len) == 0 && strncmp(e->d_name + len, ".tmp", 4) == 0;
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

/* A FIFO at the path (a reader holds it open, so that opening it to write
 * does not wait): the bytes come out of the FIFO, which is still a FIFO,
 * and no temporary file is made beside it. */
static void test_fifo_written_in_place(void) {
    char path[1100];
    snprintf(path, sizeof path, "%s/pipe", dir);
    remove(path);
    CHECK(mkfifo(path, 0600) == 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    CHECK(reader >= 0);
    gm_error err = {0};
    CHECK(gm_file_write_atomic(path, "through", 7, &err));
    char got[16] = {0};
    CHECK_EQ_I64(read(reader, got, sizeof got - 1), 7);
    CHECK(strcmp(got, "through") == 0);
    close(reader);
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK_EQ_I64(temporaries("pipe"), 0);
    remove(path);
}

/* A character device behind a link in the work folder (/dev/null: writing to it in place
 * is harmless; were the link replaced, only the link would be lost, never /dev/null):
 * the write goes through, the link still names a character device. */
static void test_char_device_written_in_place(void) {
    char path[1100];
    snprintf(path, sizeof path, "%s/null", dir);
    remove(path);
    CHECK(symlink("/dev/null", path) == 0);
    gm_error err = {0};
    CHECK(gm_file_write_atomic(path, "gone", 4, &err));
    gm_file_atomic a;
    CHECK(gm_file_atomic_begin(&a, path, &err));
    fputs("parts", a.f);
    CHECK(gm_file_atomic_commit(&a, &err));
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(path, &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK_EQ_I64(temporaries("null"), 0);
    remove(path);
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
    GM_RUN(test_fifo_written_in_place);
    GM_RUN(test_char_device_written_in_place);
    GM_TEST_END();
}
