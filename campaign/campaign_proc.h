/* campaign_proc: the engine processes of a campaign.
 *
 * Each child runs in a process group of its own, with stdout and stderr
 * appended to a log file and extra environment variables on top of ours.
 * Signals go to the whole group, so an engine's own children (AFL++'s fork
 * server, libFuzzer's forks) stop with it; Ctrl-C in the terminal reaches
 * the driver alone, which then stops its children in order.
 *
 * A child dies with the driver: it is started with PR_SET_PDEATHSIG
 * (SIGKILL), and checks right after setting it that its parent is still
 * the driver (a driver killed in between would otherwise leave it
 * orphaned for good). A SIGKILLed driver so leaves no engine running.
 */
#ifndef CAMPAIGN_PROC_H
#define CAMPAIGN_PROC_H

#include <stdbool.h>
#include <sys/types.h>

#include "gm_error.h"

/* Exit codes of a child that never reached its program. */
#define CAMPAIGN_PROC_EXIT_ORPHAN 126 /* the driver was gone before exec */
#define CAMPAIGN_PROC_EXIT_EXEC 127   /* exec failed (no such program, log) */

typedef struct {
    pid_t pid;       /* 0: never started */
    bool running;
    bool exited;     /* exited (true) or was killed by a signal (false) */
    int code;        /* the exit code, or the signal number */
} campaign_proc;

/* Starts argv[0] (searched in PATH when it has no '/') with `env_extra`
 * ("NAME=value" strings, NULL-terminated; they override ours), output
 * appended to `log_path`. */
bool campaign_proc_start(campaign_proc *p, char *const argv[], char *const env_extra[],
                         const char *log_path, gm_error *err);

/* Whether the child is still running; reaps it (and records how it ended)
 * when it is not. Never blocks. */
bool campaign_proc_poll(campaign_proc *p);

/* Sends `sig` to the child's process group (no effect once it ended). */
void campaign_proc_signal(const campaign_proc *p, int sig);

/* Asks every running child to stop (SIGINT, which both engines handle by
 * writing their final stats), waits up to `grace_ms`, then kills what is
 * left (SIGKILL) and reaps everything. */
void campaign_proc_stop_all(campaign_proc *procs, int n, int grace_ms);

/* A readable "exit 77" / "killed by signal 6". */
void campaign_proc_describe(const campaign_proc *p, char *out, size_t size);

#endif
