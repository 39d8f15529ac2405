#define _XOPEN_SOURCE 700
#include "history_checkout.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history_git.h"

bool history_checkout_scratch(const char *base, char *out, size_t size, gm_error *err) {
    if (base == NULL) {
        base = getenv("TMPDIR");
    }
    if (base == NULL || base[0] == '\0') {
        base = "/tmp";
    }
    if ((size_t)snprintf(out, size, "%s/gmfuzz-bisect-XXXXXX", base) >= size) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: the scratch folder's name is too long", base);
    }
    if (mkdtemp(out) == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot create a scratch folder: %s", out,
                            strerror(errno));
    }
    return true;
}

bool history_checkout_add(const char *repo, const char *scratch, size_t n, const char *hash,
                          char *dir, size_t size, gm_error *err) {
    if ((size_t)snprintf(dir, size, "%s/rev-%zu", scratch, n) >= size) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: the checkout's name is too long", scratch);
    }
    const char *args[] = {"worktree", "add", "--detach", "--quiet", dir, hash, NULL};
    return history_git_run(repo, args, NULL, err);
}

static int history_checkout_unlink(const char *path, const struct stat *st, int flag,
                                   struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void history_checkout_rmtree(const char *dir) {
    nftw(dir, history_checkout_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

void history_checkout_remove(const char *repo, const char *dir) {
    gm_error ignored = {0};
    const char *args[] = {"worktree", "remove", "--force", "--force", dir, NULL};
    if (!history_git_run(repo, args, NULL, &ignored)) {
        /* git could not: the files go anyway, and prune forgets the worktree */
        history_checkout_rmtree(dir);
        const char *prune[] = {"worktree", "prune", NULL};
        history_git_run(repo, prune, NULL, &ignored);
    }
}

/* The last non-empty line of `path`, into out[size] ("" when none). */
static void history_checkout_last_line(const char *path, char *out, size_t size) {
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    char line[1024];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] != '\0') { /* kept as far as out[] reaches */
            size_t n = strnlen(line, size - 1);
            memcpy(out, line, n);
            out[n] = '\0';
        }
    }
    if (f != NULL) {
        fclose(f);
    }
}

/* The child: into `dir`, output to `log`, then the shell. Never returns. */
static void history_checkout_child(const char *dir, const char *command, const char *log) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0 || chdir(dir) != 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 ||
        dup2(fd, 2) < 0) {
        _exit(127);
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

bool history_checkout_build(const char *dir, const char *command, const char *log, gm_error *err) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        return gm_error_set(err, GM_ERR_IO, "--build: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        history_checkout_child(dir, command, log);
    }
    int status = 0;
    if (!history_git_wait(pid, "--build", &status, err)) {
        return false;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return true;
    }
    char last[300];
    history_checkout_last_line(log, last, sizeof last);
    if (WIFEXITED(status)) {
        return gm_error_set(err, GM_ERR_IO, "the build exited with %d%s%s", WEXITSTATUS(status),
                            last[0] ? ": " : "", last);
    }
    return gm_error_set(err, GM_ERR_IO, "the build was killed by signal %d%s%s", WTERMSIG(status),
                        last[0] ? ": " : "", last);
}
