#include "campaign_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Whether env entry `entry` ("NAME=value") sets the same name as one of
 * `extra`. */
static bool campaign_proc_overridden(const char *entry, char *const extra[]) {
    const char *eq = strchr(entry, '=');
    size_t n = eq ? (size_t)(eq - entry) : strlen(entry);
    for (size_t i = 0; extra[i] != NULL; i++) {
        if (strncmp(extra[i], entry, n) == 0 && extra[i][n] == '=') {
            return true;
        }
    }
    return false;
}

/* Our environment without the names `extra` sets, then `extra`. The
 * strings are borrowed; free only the array. */
static char **campaign_proc_environment(char *const extra[]) {
    size_t n_env = 0, n_extra = 0;
    while (environ[n_env] != NULL) {
        n_env++;
    }
    while (extra[n_extra] != NULL) {
        n_extra++;
    }
    char **env = calloc(n_env + n_extra + 1, sizeof *env);
    if (env == NULL) {
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < n_env; i++) {
        if (!campaign_proc_overridden(environ[i], extra)) {
            env[k++] = environ[i];
        }
    }
    for (size_t i = 0; i < n_extra; i++) {
        env[k++] = extra[i];
    }
    return env;
}

/* stdin from /dev/null; stdout and stderr appended to the log; a process
 * group of its own. */
static bool campaign_proc_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr,
                                const char *log_path) {
    if (posix_spawn_file_actions_init(fa) != 0) {
        return false;
    }
    if (posix_spawnattr_init(attr) != 0) {
        posix_spawn_file_actions_destroy(fa);
        return false;
    }
    int flags = O_WRONLY | O_CREAT | O_APPEND;
    bool ok = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0) == 0 &&
              posix_spawn_file_actions_addopen(fa, 1, log_path, flags, 0644) == 0 &&
              posix_spawn_file_actions_adddup2(fa, 1, 2) == 0 &&
              posix_spawnattr_setpgroup(attr, 0) == 0 &&
              posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP) == 0;
    if (!ok) {
        posix_spawn_file_actions_destroy(fa);
        posix_spawnattr_destroy(attr);
    }
    return ok;
}

bool campaign_proc_start(campaign_proc *p, char *const argv[], char *const env_extra[],
                         const char *log_path, gm_error *err) {
    memset(p, 0, sizeof *p);
    char **env = campaign_proc_environment(env_extra);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    if (env == NULL || !campaign_proc_setup(&fa, &attr, log_path)) {
        free(env);
        return gm_error_set(err, GM_ERR_MEMORY, "%s: cannot prepare the child process",
                            argv[0]);
    }
    int rc = strchr(argv[0], '/') != NULL ? posix_spawn(&p->pid, argv[0], &fa, &attr, argv, env)
                                          : posix_spawnp(&p->pid, argv[0], &fa, &attr, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(env);
    if (rc != 0) {
        p->pid = 0;
        return gm_error_set(err, GM_ERR_IO, "%s: cannot start: %s", argv[0], strerror(rc));
    }
    p->running = true;
    return true;
}

static void campaign_proc_record(campaign_proc *p, int status) {
    p->running = false;
    p->exited = WIFEXITED(status);
    p->code = p->exited ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool campaign_proc_poll(campaign_proc *p) {
    if (!p->running) {
        return false;
    }
    int status = 0;
    pid_t r = waitpid(p->pid, &status, WNOHANG);
    if (r == p->pid) {
        campaign_proc_record(p, status);
    } else if (r < 0 && errno == ECHILD) {
        p->running = false; /* reaped elsewhere: nothing more to learn */
    }
    return p->running;
}

void campaign_proc_signal(const campaign_proc *p, int sig) {
    if (p->running && p->pid > 0) {
        kill(-p->pid, sig);
    }
}

static int campaign_proc_count_running(campaign_proc *procs, int n) {
    int running = 0;
    for (int i = 0; i < n; i++) {
        running += campaign_proc_poll(&procs[i]) ? 1 : 0;
    }
    return running;
}

void campaign_proc_stop_all(campaign_proc *procs, int n, int grace_ms) {
    for (int i = 0; i < n; i++) {
        campaign_proc_signal(&procs[i], SIGINT);
    }
    const struct timespec tick = {0, 20 * 1000 * 1000};
    for (int waited = 0; waited < grace_ms && campaign_proc_count_running(procs, n) > 0;
         waited += 20) {
        nanosleep(&tick, NULL);
    }
    for (int i = 0; i < n; i++) {
        if (procs[i].running) {
            campaign_proc_signal(&procs[i], SIGKILL);
            int status = 0;
            if (waitpid(procs[i].pid, &status, 0) == procs[i].pid) {
                campaign_proc_record(&procs[i], status);
            }
            procs[i].running = false;
        }
    }
}

void campaign_proc_describe(const campaign_proc *p, char *out, size_t size) {
    if (p->running) {
        snprintf(out, size, "running");
    } else if (p->exited) {
        snprintf(out, size, "exit %d", p->code);
    } else {
        snprintf(out, size, "killed by signal %d", p->code);
    }
}
