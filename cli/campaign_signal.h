/* campaign_signal: Ctrl-C (SIGINT), SIGTERM and SIGHUP end a campaign
 * cleanly: the handler only records that one arrived, and the driver's loop
 * stops the engines, minimizes what was found and writes the summary. A
 * signal ignored at start (nohup) stays ignored.
 *
 * The flag is the one piece of process-wide state of the driver, as a
 * signal handler needs; it lives here and nowhere else. */
#ifndef CAMPAIGN_SIGNAL_H
#define CAMPAIGN_SIGNAL_H

#include <stdbool.h>

/* Installs the handlers (and restores the defaults with `false`). */
void campaign_signal_install(bool on);

/* Whether one of them arrived since campaign_signal_install(true). */
bool campaign_signal_received(void);

#endif
