/* history_checkout: one revision of the user's repository in a worktree of
 * its own, under a scratch folder, built when asked; private to the history
 * room. The user's work tree, HEAD, branch and index are never touched: a
 * detached worktree has its own HEAD and index (under .git/worktrees/,
 * removed again with it). */
#ifndef HISTORY_CHECKOUT_H
#define HISTORY_CHECKOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

/* A new folder "gmfuzz-bisect-XXXXXX" under `base` (NULL: $TMPDIR, else /tmp). */
bool history_checkout_scratch(const char *base, char *out, size_t size, gm_error *err);

/* Checks commit `hash` out, detached, into `scratch`/rev-N. */
bool history_checkout_add(const char *repo, const char *scratch, size_t n, const char *hash,
                          char *dir, size_t size, gm_error *err);

/* Removes the worktree at `dir` (and its files, whatever git says). */
void history_checkout_remove(const char *repo, const char *dir);

/* Runs `command` with /bin/sh in `dir`, its output to `log`; false (why
 * in err: its exit status and the log's last line) when it fails. */
bool history_checkout_build(const char *dir, const char *command, const char *log, gm_error *err);

/* Removes a folder and everything under it. */
void history_checkout_rmtree(const char *dir);

#endif
