#include "campaign_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t campaign_signal_flag;

static void campaign_signal_handler(int sig) {
    (void)sig;
    campaign_signal_flag = 1;
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
    sigaction(sig, &sa, NULL);
}

void campaign_signal_install(bool on) {
    campaign_signal_flag = 0;
    void (*handler)(int) = on ? campaign_signal_handler : SIG_DFL;
    campaign_signal_set(SIGINT, handler, false);
    campaign_signal_set(SIGTERM, handler, false);
    /* The terminal closing: the engines, in process groups of their own,
     * would not hear it and would run on to their time limit. */
    campaign_signal_set(SIGHUP, handler, true);
}

bool campaign_signal_received(void) {
    return campaign_signal_flag != 0;
}
