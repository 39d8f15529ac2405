#include "history_git.h"

#include <errno.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A growing buffer for one of the child's pipes. */
typedef struct {
    char *text;
    size_t len, cap;
} history_git_buf;

static bool history_git_append(history_git_buf *b, const char *data, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *grown = realloc(b->text, cap);
        if (grown == NULL) {
            return false;
        }
        b->text = grown;
        b->cap = cap;
    }
    memcpy(b->text + b->len, data, n);
    b->len += n;
    b->text[b->len] = '\0';
    return true;
}

/* Whether an environment entry points git elsewhere than `-C repo`. */
static bool history_git_foreign(const char *entry) {
    static const char *const names[] = {"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=",
                                        "GIT_OBJECT_DIRECTORY=", "GIT_COMMON_DIR="};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strncmp(entry, names[i], strlen(names[i])) == 0) {
            return true;
        }
    }
    return false;
}

/* Our environment less the foreign entries (borrowed strings); NULL: no memory. */
static char **history_git_env(void) {
    size_t n = 0, k = 0;
    while (environ[n] != NULL) {
        n++;
    }
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env != NULL && i < n; i++) {
        if (!history_git_foreign(environ[i])) {
            env[k++] = environ[i];
        }
    }
    return env;
}

/* "git -C repo a b c" into argv (borrowed strings); NULL: no memory. */
static char **history_git_argv(const char *repo, const char *const *args) {
    size_t n = 0;
    while (args[n] != NULL) {
        n++;
    }
    char **argv = calloc(n + 4, sizeof *argv);
    if (argv != NULL) {
        argv[0] = "git";
        argv[1] = "-C";
        argv[2] = (char *)repo;
        for (size_t i = 0; i < n; i++) {
            argv[3 + i] = (char *)args[i];
        }
    }
    return argv;
}

/* Reads both pipes to their ends; false when memory runs out. */
static bool history_git_drain(int out_fd, int err_fd, history_git_buf *out, history_git_buf *errs) {
    struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    history_git_buf *bufs[2] = {out, errs};
    bool ok = true;
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR) {
            return false;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            char chunk[8192];
            ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
            if (got > 0) {
                ok = history_git_append(bufs[i], chunk, (size_t)got) && ok;
            } else if (got == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
            }
        }
    }
    return ok;
}

bool history_git_wait(pid_t pid, const char *name, int *status, gm_error *err) {
    while (waitpid(pid, status, 0) < 0) {
        if (errno != EINTR) {
            return gm_error_set(err, GM_ERR_IO, "%s: waitpid: %s", name, strerror(errno));
        }
    }
    return true;
}

/* The command as one line, for an error: "git worktree add ...". */
static void history_git_describe(const char *const *args, char *out, size_t size) {
    size_t at = (size_t)snprintf(out, size, "git");
    for (size_t i = 0; args[i] != NULL && at < size; i++) {
        at += (size_t)snprintf(out + at, size - at, " %s", args[i]);
    }
}

/* The child's end: how it exited, as an error when not 0. */
static bool history_git_status(pid_t pid, const char *const *args, const history_git_buf *errs,
                               gm_error *err) {
    int status = 0;
    if (!history_git_wait(pid, "git", &status, err)) {
        return false;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return true;
    }
    char what[300];
    history_git_describe(args, what, sizeof what);
    const char *text = errs->text != NULL ? errs->text : "";
    int first = (int)strcspn(text, "\n");
    return gm_error_set(err, GM_ERR_IO, "%s: %s%s%.*s", what,
                        WIFEXITED(status) ? "failed" : "killed by a signal",
                        first > 0 ? ": " : "", first > 300 ? 300 : first, text);
}

/* Starts git with its stdout and stderr on two new pipes. */
static bool history_git_spawn(const char *repo, const char *const *args, pid_t *pid, int fds[2],
                              gm_error *err) {
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe) != 0) {
        return gm_error_set(err, GM_ERR_IO, "git: pipe: %s", strerror(errno));
    }
    if (pipe(err_pipe) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return gm_error_set(err, GM_ERR_IO, "git: pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
    posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
    posix_spawn_file_actions_addclose(&fa, out_pipe[0]);
    posix_spawn_file_actions_addclose(&fa, err_pipe[0]);
    char **argv = history_git_argv(repo, args);
    char **env = history_git_env();
    int rc = argv != NULL && env != NULL ? posix_spawnp(pid, "git", &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    free(env);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        return gm_error_set(err, GM_ERR_IO, "cannot run git: %s", strerror(rc));
    }
    fds[0] = out_pipe[0];
    fds[1] = err_pipe[0];
    return true;
}

bool history_git_run(const char *repo, const char *const *args, char **out, gm_error *err) {
    pid_t pid;
    int fds[2] = {-1, -1}; /* set by the spawn when it succeeds */
    if (out != NULL) {
        *out = NULL;
    }
    if (!history_git_spawn(repo, args, &pid, fds, err)) {
        return false;
    }
    history_git_buf text = {0}, errs = {0};
    bool drained = history_git_drain(fds[0], fds[1], &text, &errs);
    bool ok = history_git_status(pid, args, &errs, err);
    if (ok && !drained) {
        ok = gm_error_set(err, GM_ERR_MEMORY, "out of memory reading git's output");
    }
    free(errs.text);
    if (ok && out != NULL) {
        *out = text.text != NULL ? text.text : calloc(1, 1);
        ok = *out != NULL || gm_error_set(err, GM_ERR_MEMORY, "out of memory");
    } else {
        free(text.text);
    }
    return ok;
}

bool history_git_line(const char *repo, const char *const *args, char *out, size_t size,
                      gm_error *err) {
    char *text = NULL;
    if (!history_git_run(repo, args, &text, err)) {
        return false;
    }
    snprintf(out, size, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
    return true;
}

bool history_git_commit(const char *repo, const char *rev, const char *flag, history_commit *out,
                        gm_error *err) {
    char spec[HISTORY_SUBJECT_MAX + 16];
    snprintf(spec, sizeof spec, "%s^{commit}", rev);
    const char *parse[] = {"rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL};
    if (!history_git_line(repo, parse, out->hash, sizeof out->hash, err)) {
        return gm_error_set(err, GM_ERR_USAGE, "%s %s: not a commit of %s", flag, rev, repo);
    }
    const char *show[] = {"show", "-s", "--format=%aI%x09%s", out->hash, "--", NULL};
    char line[HISTORY_DATE_MAX + HISTORY_SUBJECT_MAX];
    if (!history_git_line(repo, show, line, sizeof line, err)) {
        return false;
    }
    size_t tab = strcspn(line, "\t");
    snprintf(out->date, sizeof out->date, "%.*s", (int)tab, line);
    snprintf(out->subject, sizeof out->subject, "%s", line[tab] ? line + tab + 1 : "");
    return true;
}
