#include "campaign_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* The pid the holder wrote, or 0 when it has not yet. */
static long campaign_lock_holder(int fd) {
    char buf[32] = "";
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    buf[got > 0 ? got : 0] = '\0';
    return strtol(buf, NULL, 10);
}

static bool campaign_lock_refuse(int fd, const char *dir, const char *path, gm_error *err) {
    long pid = campaign_lock_holder(fd);
    char who[48] = "a process that has not written its pid yet";
    if (pid > 0) {
        snprintf(who, sizeof who, "pid %ld", pid);
    }
    return gm_error_set(err, GM_ERR_IO,
                        "--out %s: the folder is in use by another campaign (%s holds %s); "
                        "wait for it to end or choose another --out",
                        dir, who, path);
}

bool campaign_lock_take(campaign_lock *l, const char *dir, bool *busy, gm_error *err) {
    char path[4200];
    l->held = false;
    *busy = false;
    snprintf(path, sizeof path, "%s/%s", dir, CAMPAIGN_LOCK_NAME);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot create the lock file: %s", path,
                            strerror(errno));
    }
    int rc;
    do {
        rc = flock(fd, LOCK_EX | LOCK_NB);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        bool in_use = errno == EWOULDBLOCK;
        int saved = errno;
        bool ok = in_use ? campaign_lock_refuse(fd, dir, path, err)
                         : gm_error_set(err, GM_ERR_IO, "%s: cannot lock: %s", path,
                                        strerror(saved));
        close(fd);
        *busy = in_use;
        return ok;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    /* Only a message depends on the pid: a write that fails costs that. */
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        fprintf(stderr, "gmfuzz fuzz: %s: cannot write the pid: %s\n", path, strerror(errno));
    }
    l->fd = fd;
    l->held = true;
    return true;
}

void campaign_lock_release(campaign_lock *l) {
    if (l->held) {
        close(l->fd); /* the lock goes with the descriptor */
        l->held = false;
    }
}
