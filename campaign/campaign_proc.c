#include "campaign_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* The child's side, between fork and exec: only async-signal-safe calls.
 * A process group of its own; SIGKILL when the driver dies, however it
 * dies (PR_SET_PDEATHSIG), and if the driver died before that was set
 * (the parent is no longer `parent`), no exec at all; stdin from
 * /dev/null, stdout and stderr appended to the log; the signals the
 * driver catches back to their defaults. Never returns. */
static void campaign_proc_child(char *const argv[], char **env, const char *log_path,
                                pid_t parent, int report_fd) {
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
        _exit(CAMPAIGN_PROC_EXIT_ORPHAN);
    }
    int in = open("/dev/null", O_RDONLY);
    int out = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
        _exit(CAMPAIGN_PROC_EXIT_EXEC);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    sigaction(SIGHUP, &dfl, NULL);
    sigaction(SIGPIPE, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    environ = env;
    if (strchr(argv[0], '/') != NULL) {
        execv(argv[0], argv);
    } else {
        execvp(argv[0], argv);
    }
    int why = errno;
    ssize_t put = write(report_fd, &why, sizeof why); /* the parent says why */
    (void)put;
    _exit(CAMPAIGN_PROC_EXIT_EXEC);
}

/* What the child reported through `fd` before exec: 0 when exec went
 * ahead (the close-on-exec pipe closed without a word). */
static int campaign_proc_exec_errno(int fd) {
    int why = 0;
    ssize_t got;
    do {
        got = read(fd, &why, sizeof why);
    } while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof why ? why : 0;
}

bool campaign_proc_start(campaign_proc *p, char *const argv[], char *const env_extra[],
                         const char *log_path, gm_error *err) {
    memset(p, 0, sizeof *p);
    char **env = campaign_proc_environment(env_extra);
    if (env == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: cannot prepare the child process",
                            argv[0]);
    }
    /* The log is opened here first, so that a bad path is an error with a
     * message rather than a child that exits at once. */
    int probe = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (probe < 0) {
        int saved = errno;
        free(env);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open the log %s: %s", argv[0],
                            log_path, strerror(saved));
    }
    close(probe);
    int report[2];
    if (pipe(report) != 0 || fcntl(report[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(report[1], F_SETFD, FD_CLOEXEC) != 0) {
        free(env);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot start: %s", argv[0], strerror(errno));
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        campaign_proc_child(argv, env, log_path, parent, report[1]);
    }
    int saved = errno;
    close(report[1]);
    free(env);
    if (pid < 0) {
        close(report[0]);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot start: %s", argv[0], strerror(saved));
    }
    setpgid(pid, pid); /* also here: signals to the group work from the start */
    int why = campaign_proc_exec_errno(report[0]);
    close(report[0]);
    if (why != 0) {
        int status = 0;
        waitpid(pid, &status, 0);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot start: %s", argv[0], strerror(why));
    }
    p->pid = pid;
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
