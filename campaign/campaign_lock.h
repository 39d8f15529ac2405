/* campaign_lock: one campaign at a time in an output folder.
 *
 * A campaign holds an exclusive flock(2) on DIR/campaign.lock from before
 * it writes anything into DIR until it has written its last report; the
 * file holds the holder's pid, so that a second campaign started into the
 * same folder refuses it with a message naming the folder and that pid
 * (gmfuzz fuzz exits CAMPAIGN_EXIT_LOCKED). The lock goes with the
 * process, however it ends: a killed campaign leaves no stale lock. The
 * descriptor is close-on-exec, so engine jobs never hold it.
 */
#ifndef CAMPAIGN_LOCK_H
#define CAMPAIGN_LOCK_H

#include <stdbool.h>

#include "gm_error.h"

#define CAMPAIGN_LOCK_NAME "campaign.lock"

typedef struct {
    int fd;
    bool held;
} campaign_lock;

/* Takes the lock of folder `dir` (which must exist). False with `*busy`
 * when another process holds it (err names `dir` and its pid), false
 * without when the lock file cannot be made. */
bool campaign_lock_take(campaign_lock *l, const char *dir, bool *busy, gm_error *err);

/* Lets it go (nothing when not held). */
void campaign_lock_release(campaign_lock *l);

#endif
