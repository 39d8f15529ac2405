/* campaign_signal: Ctrl-C (SIGINT), SIGTERM and SIGHUP end a campaign
 * cleanly: the handler only counts them and wakes the driver's loop,
 * which stops the engines within a second, minimizes what was found and
 * writes the summary. A second one skips what is left of the
 * minimization (every failure is on disk already) and goes straight to
 * the record and the reports. A signal ignored at start (nohup's SIGHUP)
 * stays ignored.
 *
 * The driver's loop sleeps in poll(2) on campaign_signal_fd(): these
 * signals and SIGCHLD (a job or a minimizer that ended) write a byte to it
 * (the self-pipe), so the loop wakes at once rather than at its next
 * deadline.
 *
 * The counters are the one piece of process-wide state of the driver, as
 * a signal handler needs; they live here and nowhere else. */
#ifndef CAMPAIGN_SIGNAL_H
#define CAMPAIGN_SIGNAL_H

#include <stdbool.h>

/* Installs the handlers (and restores the defaults with `false`). */
void campaign_signal_install(bool on);

/* Whether one of them arrived since campaign_signal_install(true). */
bool campaign_signal_received(void);

/* How many arrived since then. */
unsigned campaign_signal_count(void);

/* The read end of the self-pipe (-1 before install); readable when a
 * signal or a SIGCHLD arrived. */
int campaign_signal_fd(void);

/* Empties the self-pipe (after poll said it was readable). */
void campaign_signal_drain(void);

/* Waits up to `ms` milliseconds (0: just a look) for the self-pipe, then
 * empties it. */
void campaign_signal_wait(int ms);

/* For a forked child that is not the driver: the defaults back, the pipe
 * closed (it must not wake, or be woken by, the driver). */
void campaign_signal_forget(void);

#endif
