/* history_git: git run as a program (argv arrays, never a shell), its
 * standard output captured; private to the history room. Every command runs
 * as `git -C REPO ...` with GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE taken
 * out of its environment, so that a caller's (a hook's) cannot point it at
 * another repository or index. */
#ifndef HISTORY_GIT_H
#define HISTORY_GIT_H

#include <stdbool.h>
#include <sys/types.h>

#include "gm_error.h"
#include "history.h"

/* Runs `git -C repo args[0] args[1] ...` (args NULL-terminated) and waits.
 * *out (may be NULL: discarded) gets its stdout, malloc'd and
 * NUL-terminated. True only when it exited 0; else the error quotes the
 * command and the first line of its stderr. */
bool history_git_run(const char *repo, const char *const *args, char **out, gm_error *err);

/* The first line of the command's stdout, into out[size]. */
bool history_git_line(const char *repo, const char *const *args, char *out, size_t size,
                      gm_error *err);

/* `rev` resolved to a commit's full hash, with its subject and author
 * date; the error names `flag` (--good, --bad). */
bool history_git_commit(const char *repo, const char *rev, const char *flag, history_commit *out,
                        gm_error *err);

/* Waits for child `pid` (through EINTR) into *status; the error names `name`. */
bool history_git_wait(pid_t pid, const char *name, int *status, gm_error *err);

#endif
