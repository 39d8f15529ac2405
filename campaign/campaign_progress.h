/* campaign_progress: whether an engine job is still getting anywhere.
 *
 * A job makes progress while its log grows or its process group uses CPU
 * time. One that does neither for the campaign's --stall-timeout (a
 * target that corrupted its heap and deadlocked in malloc, a job blocked
 * forever on a pipe) sits at 0 exec/s: the driver kills it and restarts
 * it, recording why. CPU time is read from /proc (Linux): every process
 * of the job's group, with the children it has reaped. Where /proc is
 * missing only the log counts.
 */
#ifndef CAMPAIGN_PROGRESS_H
#define CAMPAIGN_PROGRESS_H

#include <stdint.h>
#include <sys/types.h>

typedef struct {
    long long log_bytes;   /* the log's size when last looked at */
    uint64_t cpu_ticks;    /* the group's CPU time then (clock ticks) */
    double since_s;        /* when progress was last seen (campaign clock) */
} campaign_progress;

/* A run that starts now. */
void campaign_progress_start(campaign_progress *p, double now_s);

/* Looks again; returns the seconds since progress was last seen. */
double campaign_progress_idle(campaign_progress *p, pid_t group, const char *log_path,
                              double now_s);

/* CPU time (user + system, with reaped children) of every process whose
 * process group is `group`, in clock ticks; 0 when none is found. */
uint64_t campaign_progress_group_cpu(pid_t group);

#endif
