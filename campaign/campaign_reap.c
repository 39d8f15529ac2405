#include "campaign_reap.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a child left over may take to end by itself (one of the
 * campaign's own workers, already sent SIGKILL by PR_SET_PDEATHSIG, is
 * gone within it), and how many rounds of orphans are ended at most (a
 * helper that forks without end is not followed for ever). */
#define CAMPAIGN_REAP_GRACE_MS 200
#define CAMPAIGN_REAP_ROUNDS 64
#define CAMPAIGN_REAP_BATCH 256

bool campaign_reap_adopt_orphans(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0; }

/* The parent pid in /proc/PID/stat: the field after the state, which
 * follows the command name's closing parenthesis. */
static pid_t campaign_reap_parent_of(const char *pid) {
    char path[300], text[512]; /* path: a d_name is up to 255 bytes */
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f != NULL) {
        fclose(f);
    }
    text[n] = '\0';
    const char *close = strrchr(text, ')');
    char state = 0;
    int ppid = 0;
    return close != NULL && sscanf(close + 1, " %c %d", &state, &ppid) == 2 ? (pid_t)ppid : 0;
}

/* Our children, from /proc; how many were written into `out`. */
static size_t campaign_reap_children(pid_t *out, size_t max) {
    pid_t self = getpid();
    size_t n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL && n < max; e = readdir(d)) {
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
            campaign_reap_parent_of(e->d_name) == self) {
            out[n++] = (pid_t)strtol(e->d_name, NULL, 10);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

/* Reaps those of `pids` that ended; true when all of them have. */
static bool campaign_reap_ended(pid_t *pids, bool *gone, size_t n) {
    bool all = true;
    for (size_t k = 0; k < n; k++) {
        if (!gone[k]) {
            pid_t got = waitpid(pids[k], NULL, WNOHANG);
            gone[k] = got == pids[k] || got < 0; /* < 0: not ours any more */
        }
        all = all && gone[k];
    }
    return all;
}

/* One round: the children there are now, a grace, then SIGKILL for the
 * rest. The number killed; *found, how many there were. */
static unsigned campaign_reap_round(size_t *found) {
    pid_t pids[CAMPAIGN_REAP_BATCH];
    bool gone[CAMPAIGN_REAP_BATCH] = {false};
    size_t n = campaign_reap_children(pids, CAMPAIGN_REAP_BATCH);
    *found = n;
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int ms = 0; ms < CAMPAIGN_REAP_GRACE_MS && !campaign_reap_ended(pids, gone, n); ms += 10) {
        nanosleep(&tick, NULL);
    }
    unsigned killed = 0;
    for (size_t k = 0; k < n; k++) {
        if (!gone[k] && kill(pids[k], SIGKILL) == 0) {
            killed++;
            waitpid(pids[k], NULL, 0);
        }
    }
    return killed;
}

unsigned campaign_reap_leftovers(void) {
    unsigned killed = 0;
    for (int round = 0; round < CAMPAIGN_REAP_ROUNDS; round++) {
        size_t found = 0;
        killed += campaign_reap_round(&found);
        if (found == 0) {
            break;
        }
    }
    return killed;
}
