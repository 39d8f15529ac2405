#include "campaign_minimizer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign_signal.h"
#include "harness.h"
#include "minimize.h"

/* What the child sends back for one signature. */
typedef struct {
    size_t index;
    bool ok;                       /* false: the backend failed (msg) */
    campaign_repro repro;
    char msg[GM_ERROR_MSG_MAX];
} campaign_minimizer_result;

static bool campaign_minimizer_write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t put = write(fd, p, len);
        if (put < 0 && errno == EINTR) {
            continue;
        }
        if (put <= 0) {
            return false;
        }
        p += put;
        len -= (size_t)put;
    }
    return true;
}

/* The child: the signatures from `first` on, one result each. */
static _Noreturn void campaign_minimizer_child(const campaign_setup *s,
                                               const campaign_failures *f, size_t first,
                                               double deadline_s, int out, pid_t parent) {
    campaign_signal_forget();
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
        _exit(1);
    }
    static campaign_minimizer_result res;
    harness_backend *b = NULL;
    gm_error err = {0};
    harness_target_spec spec;
    harness_run_legacy *legacy = NULL;
    bool ok = campaign_options_target(&s->opt, &spec, &err) &&
              harness_backend_open_target(&spec, &b, &err);
    /* a three-way campaign minimizes three-way: a drift keeps its signature
     * only with real PyTorch in the loop */
    if (ok && s->opt.reference != NULL) {
        ok = harness_run_legacy_open(s->opt.reference, false, spec.timeout_s, &legacy, &err);
        harness_backend_set_legacy(b, legacy);
    }
    if (ok) {
        harness_backend_set_confirm(b, false); /* confirmed when found */
    }
    for (size_t i = first; i < f->n_sigs; i++) {
        memset(&res, 0, sizeof res);
        res.index = i;
        if (ok) {
            fprintf(stderr, "gmfuzz fuzz: minimizing %s\n", f->sigs[i].signature);
            ok = campaign_repro_make(b, s, &f->sigs[i], deadline_s, &res.repro, &err);
        }
        res.ok = ok;
        snprintf(res.msg, sizeof res.msg, "%s", err.msg[0] ? err.msg : "out of memory");
        if (!campaign_minimizer_write_all(out, &res, sizeof res) || !ok) {
            break;
        }
    }
    harness_backend_close(b);
    harness_run_legacy_close(legacy);
    fflush(NULL);
    _exit(0);
}

typedef enum {
    CAMPAIGN_MINIMIZER_GOT,      /* a whole result */
    CAMPAIGN_MINIMIZER_CLOSED,   /* the child is gone */
    CAMPAIGN_MINIMIZER_STOPPED,  /* a second signal */
    CAMPAIGN_MINIMIZER_STALLED,  /* nothing for CAMPAIGN_MINIMIZER_STALL_S */
    CAMPAIGN_MINIMIZER_LATE,     /* the phase's budget, and its grace, ran out */
} campaign_minimizer_wait;

static double campaign_minimizer_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Reads one result, waking for signals (the self-pipe) as it goes, until
 * `late_s` (minimize_clock). */
static campaign_minimizer_wait campaign_minimizer_read(int fd, campaign_minimizer_result *res,
                                                       double late_s) {
    char *p = (char *)res;
    size_t got = 0;
    double since = campaign_minimizer_now();
    while (got < sizeof *res) {
        if (campaign_signal_count() >= 2) {
            return CAMPAIGN_MINIMIZER_STOPPED;
        }
        if (minimize_clock() >= late_s) {
            return CAMPAIGN_MINIMIZER_LATE;
        }
        if (campaign_minimizer_now() - since > CAMPAIGN_MINIMIZER_STALL_S) {
            return CAMPAIGN_MINIMIZER_STALLED;
        }
        struct pollfd fds[2] = {{.fd = fd, .events = POLLIN},
                                {.fd = campaign_signal_fd(), .events = POLLIN}};
        if (poll(fds, fds[1].fd >= 0 ? 2 : 1, 200) <= 0) {
            continue;
        }
        if (fds[1].revents != 0) {
            campaign_signal_drain();
        }
        if (fds[0].revents == 0) {
            continue;
        }
        ssize_t n = read(fd, p + got, sizeof *res - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return CAMPAIGN_MINIMIZER_CLOSED;
        }
        got += (size_t)n;
        since = campaign_minimizer_now();
    }
    return CAMPAIGN_MINIMIZER_GOT;
}

/* Ends the child (all of its group) and says how it ended. */
static void campaign_minimizer_reap(pid_t pid, bool kill_it, char *how, size_t size) {
    int status = 0;
    if (kill_it) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        snprintf(how, size, "killed by signal %d", WTERMSIG(status));
    } else {
        snprintf(how, size, "exit %d", WEXITSTATUS(status));
    }
}

static void campaign_minimizer_note(campaign_repro *r, const char *fmt, const char *what) {
    memset(r, 0, sizeof *r);
    snprintf(r->note, sizeof r->note, fmt, what);
}

/* One child for the signatures from *next on; advances *next past what
 * it did. False when the backend failed (problem). */
static bool campaign_minimizer_child_round(const campaign_setup *s, const campaign_failures *f,
                                           double deadline_s, campaign_repro *repros,
                                           size_t *next, bool *stop, bool *late, char *problem,
                                           size_t problem_size) {
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(problem, problem_size, "no reproducers: cannot make a pipe: %s",
                 strerror(errno));
        return false;
    }
    /* Not inherited by what the child execs (a python: target's worker): a
     * worker still importing torch would hold the pipe open after the child
     * died, and its death would be seen only when the budget ran out. */
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        campaign_minimizer_child(s, f, *next, deadline_s, fds[1], parent);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(problem, problem_size, "no reproducers: cannot fork: %s", strerror(errno));
        return false;
    }
    setpgid(pid, pid);
    static campaign_minimizer_result res;
    campaign_minimizer_wait w;
    bool ok = true;
    double late_s = deadline_s + CAMPAIGN_MINIMIZER_GRACE_S;
    while ((w = campaign_minimizer_read(fds[0], &res, late_s)) == CAMPAIGN_MINIMIZER_GOT) {
        if (!res.ok) {
            snprintf(problem, problem_size, "no reproducers: %s", res.msg);
            ok = false;
            break;
        }
        repros[res.index] = res.repro;
        *next = res.index + 1;
    }
    close(fds[0]);
    char how[64];
    campaign_minimizer_reap(pid, w != CAMPAIGN_MINIMIZER_CLOSED, how, sizeof how);
    if (ok && (w == CAMPAIGN_MINIMIZER_STOPPED || w == CAMPAIGN_MINIMIZER_LATE)) {
        *stop = true;
        *late = w == CAMPAIGN_MINIMIZER_LATE;
    } else if (ok && *next < f->n_sigs) {
        /* The child died (or hung) on this one: noted, and the next child
         * goes on after it. */
        char what[160];
        snprintf(what, sizeof what, "%s%s",
                 w == CAMPAIGN_MINIMIZER_STALLED ? "no result in time, " : "", how);
        campaign_minimizer_note(&repros[*next],
                                "minimizing it crashed the minimizer process (%s); the "
                                "target may corrupt memory or hang",
                                what);
        (*next)++;
    }
    return ok;
}

bool campaign_minimizer_run(const campaign_setup *s, const campaign_failures *f,
                            campaign_repro *repros, size_t *skipped, char *problem,
                            size_t problem_size) {
    size_t next = 0;
    bool stop = false, late = false;
    *skipped = 0;
    /* From here: the campaign's budget is spent, this phase has its own. */
    double deadline_s = minimize_clock() + campaign_options_minimize_time(&s->opt);
    while (next < f->n_sigs && !stop) {
        if (campaign_signal_count() >= 2) {
            stop = true;
            break;
        }
        if (!campaign_minimizer_child_round(s, f, deadline_s, repros, &next, &stop, &late,
                                            problem, problem_size)) {
            return false;
        }
    }
    if (late && next < f->n_sigs) {
        fprintf(stderr, "gmfuzz fuzz: the minimization's budget ran out: %zu signature%s "
                        "written as found\n",
                f->n_sigs - next, f->n_sigs - next == 1 ? "" : "s");
    }
    for (; late && next < f->n_sigs; next++) {
        campaign_repro_as_found(s, &f->sigs[next], &repros[next]);
    }
    for (; next < f->n_sigs; next++) {
        campaign_minimizer_note(&repros[next], "%s",
                                "skipped: the minimization was interrupted (a second signal)");
        (*skipped)++;
    }
    if (*skipped > 0) {
        fprintf(stderr, "gmfuzz fuzz: interrupted again: %zu signature%s not minimized\n",
                *skipped, *skipped == 1 ? "" : "s");
    }
    return true;
}
