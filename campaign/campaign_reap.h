/* campaign_reap: a campaign's processes end with it (issue 24 item 4).
 *
 * A target may start helpers in a session of their own (setsid: compile
 * worker pools do), out of reach of the signals a job's process group gets
 * and of PR_SET_PDEATHSIG. The driver therefore makes itself a child
 * subreaper (PR_SET_CHILD_SUBREAPER): a descendant orphaned anywhere below
 * it is reparented to it rather than to init. Once the jobs and hubs are
 * stopped, every child of the driver that is left is such an orphan (or a
 * process of the campaign that is dying anyway): it gets a short grace to
 * end by itself, then SIGKILL, and is reaped; its own orphans come to the
 * driver in turn, until none is left. */
#ifndef CAMPAIGN_REAP_H
#define CAMPAIGN_REAP_H

#include <stdbool.h>

/* Makes this process a child subreaper; false (errno set) where the
 * kernel refuses it. */
bool campaign_reap_adopt_orphans(void);

/* Ends and reaps every child left to this process, round after round,
 * their orphans included. Returns how many were still alive after the
 * grace and had to be killed: the processes the campaign left behind. */
unsigned campaign_reap_leftovers(void);

#endif
