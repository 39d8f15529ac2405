#include "campaign_progress.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void campaign_progress_start(campaign_progress *p, double now_s) {
    memset(p, 0, sizeof *p);
    p->log_bytes = -1;
    p->since_s = now_s;
}

/* From /proc/PID/stat: the process group and utime + stime + cutime +
 * cstime. The command name, in parentheses, may hold anything: the fields
 * are counted from the last ')'. */
static bool campaign_progress_stat(const char *pid, pid_t *group, uint64_t *ticks) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return false;
    }
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    const char *close = strrchr(text, ')');
    if (close == NULL) {
        return false;
    }
    /* after ')': state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime cutime cstime */
    long long pgrp = 0;
    unsigned long long ut = 0, st = 0, cut = 0, cst = 0;
    int n = sscanf(close + 1, " %*c %*d %lld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
                   &pgrp, &ut, &st, &cut, &cst);
    if (n != 5) {
        return false;
    }
    *group = (pid_t)pgrp;
    *ticks = ut + st + cut + cst;
    return true;
}

uint64_t campaign_progress_group_cpu(pid_t group) {
    DIR *d = opendir("/proc");
    uint64_t total = 0;
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        pid_t g = 0;
        uint64_t ticks = 0;
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
            campaign_progress_stat(e->d_name, &g, &ticks) && g == group) {
            total += ticks;
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return total;
}

double campaign_progress_idle(campaign_progress *p, pid_t group, const char *log_path,
                              double now_s) {
    struct stat st;
    long long bytes = stat(log_path, &st) == 0 ? (long long)st.st_size : 0;
    if (bytes != p->log_bytes) {
        p->log_bytes = bytes;
        p->since_s = now_s;
        return 0.0;
    }
    /* A silent log: the CPU time decides (a slow target between two of
     * libFuzzer's power-of-two status lines still uses CPU). */
    uint64_t ticks = campaign_progress_group_cpu(group);
    if (ticks != p->cpu_ticks) {
        p->cpu_ticks = ticks;
        p->since_s = now_s;
        return 0.0;
    }
    return now_s - p->since_s;
}
