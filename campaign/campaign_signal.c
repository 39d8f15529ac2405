#include "campaign_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t campaign_signal_stops;
static int campaign_signal_pipe[2] = {-1, -1};

/* Wakes the loop; a full pipe already will. */
static void campaign_signal_wake(void) {
    int saved = errno;
    if (campaign_signal_pipe[1] >= 0) {
        ssize_t put = write(campaign_signal_pipe[1], "x", 1);
        (void)put;
    }
    errno = saved;
}

static void campaign_signal_handler(int sig) {
    (void)sig;
    campaign_signal_stops = campaign_signal_stops + 1;
    campaign_signal_wake();
}

static void campaign_signal_child(int sig) {
    (void)sig;
    campaign_signal_wake();
}

/* Sets `sig`'s disposition; with `keep_ignored`, a signal ignored when we
 * started stays ignored (nohup's SIGHUP). SIGINT and SIGTERM are always
 * ours: a script's background job starts with SIGINT ignored, and
 * `kill -INT` must still end it cleanly. */
static void campaign_signal_set(int sig, void (*handler)(int), bool keep_ignored) {
    struct sigaction old;
    if (keep_ignored && sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, NULL);
}

static bool campaign_signal_open_pipe(void) {
    if (campaign_signal_pipe[0] >= 0) {
        return true;
    }
    if (pipe(campaign_signal_pipe) != 0) {
        return false;
    }
    for (int k = 0; k < 2; k++) {
        fcntl(campaign_signal_pipe[k], F_SETFD, FD_CLOEXEC);
        fcntl(campaign_signal_pipe[k], F_SETFL, O_NONBLOCK);
    }
    return true;
}

static void campaign_signal_close_pipe(void) {
    for (int k = 0; k < 2; k++) {
        if (campaign_signal_pipe[k] >= 0) {
            close(campaign_signal_pipe[k]);
            campaign_signal_pipe[k] = -1;
        }
    }
}

void campaign_signal_install(bool on) {
    campaign_signal_stops = 0;
    if (on) {
        campaign_signal_open_pipe();
    }
    void (*handler)(int) = on ? campaign_signal_handler : SIG_DFL;
    campaign_signal_set(SIGINT, handler, false);
    campaign_signal_set(SIGTERM, handler, false);
    /* The terminal closing: the engines, in process groups of their own,
     * would not hear it and would run on to their time limit. */
    campaign_signal_set(SIGHUP, handler, true);
    campaign_signal_set(SIGCHLD, on ? campaign_signal_child : SIG_DFL, false);
    if (!on) {
        campaign_signal_close_pipe();
    }
}

bool campaign_signal_received(void) {
    return campaign_signal_stops != 0;
}

unsigned campaign_signal_count(void) {
    return (unsigned)campaign_signal_stops;
}

int campaign_signal_fd(void) {
    return campaign_signal_pipe[0];
}

void campaign_signal_drain(void) {
    char buf[64];
    while (campaign_signal_pipe[0] >= 0 && read(campaign_signal_pipe[0], buf, sizeof buf) > 0) {
    }
}

void campaign_signal_wait(int ms) {
    struct pollfd p = {.fd = campaign_signal_pipe[0], .events = POLLIN};
    if (p.fd < 0) {
        poll(NULL, 0, ms);
        return;
    }
    if (poll(&p, 1, ms) > 0) {
        campaign_signal_drain();
    }
}

void campaign_signal_forget(void) {
    campaign_signal_set(SIGINT, SIG_DFL, false);
    campaign_signal_set(SIGTERM, SIG_DFL, false);
    campaign_signal_set(SIGHUP, SIG_DFL, true);
    campaign_signal_set(SIGCHLD, SIG_DFL, false);
    campaign_signal_close_pipe();
}
