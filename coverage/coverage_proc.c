#include "coverage_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

/* Whether `entry` ("NAME=value") sets a variable that one of `extra` sets. */
static bool coverage_proc_overridden(const char *entry, char *const extra[]) {
    size_t n = strcspn(entry, "=");
    for (size_t i = 0; extra != NULL && extra[i] != NULL; i++) {
        if (strncmp(entry, extra[i], n) == 0 && extra[i][n] == '=') {
            return true;
        }
    }
    return false;
}

/* Our environment with `extra` on top, NULL-terminated (the strings are
 * borrowed); NULL when memory runs out. */
static char **coverage_proc_env(char *const extra[]) {
    size_t n = 0, k = 0, m = 0;
    while (environ[n] != NULL) {
        n++;
    }
    while (extra != NULL && extra[m] != NULL) {
        m++;
    }
    char **env = calloc(n + m + 1, sizeof *env);
    for (size_t i = 0; env != NULL && i < n; i++) {
        if (!coverage_proc_overridden(environ[i], extra)) {
            env[k++] = environ[i];
        }
    }
    for (size_t i = 0; env != NULL && i < m; i++) {
        env[k++] = extra[i];
    }
    return env;
}

static bool coverage_proc_redirect(posix_spawn_file_actions_t *fa, const char *stdout_path,
                                   const char *log_path) {
    int log_flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
    bool ok = posix_spawn_file_actions_addopen(fa, 2, log_path, log_flags, 0644) == 0;
    if (stdout_path != NULL) {
        ok = ok && posix_spawn_file_actions_addopen(fa, 1, stdout_path,
                                                    O_WRONLY | O_CREAT | O_TRUNC, 0644) == 0;
    } else {
        ok = ok && posix_spawn_file_actions_adddup2(fa, 2, 1) == 0;
    }
    return ok && posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0) == 0;
}

static bool coverage_proc_wait(pid_t pid, const char *name, const char *log_path,
                               gm_error *err) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return gm_error_set(err, GM_ERR_IO, "%s: waitpid: %s", name, strerror(errno));
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return true;
    }
    if (WIFEXITED(status)) {
        return gm_error_set(err, GM_ERR_IO, "%s exited with %d (its output: %s)", name,
                            WEXITSTATUS(status), log_path);
    }
    return gm_error_set(err, GM_ERR_IO, "%s was killed by signal %d (its output: %s)", name,
                        WTERMSIG(status), log_path);
}

bool coverage_proc_run(char *const argv[], char *const env_extra[], const char *stdout_path,
                       const char *log_path, gm_error *err) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", argv[0]);
    }
    char **env = coverage_proc_env(env_extra);
    bool ok = env != NULL && coverage_proc_redirect(&fa, stdout_path, log_path);
    pid_t pid = 0;
    int rc = ok ? posix_spawnp(&pid, argv[0], &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    if (rc != 0) {
        return gm_error_set(err, GM_ERR_IO, "cannot start %s: %s", argv[0], strerror(rc));
    }
    return coverage_proc_wait(pid, argv[0], log_path, err);
}
