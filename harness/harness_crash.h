/* harness_crash: the case that made a GPU target fail (a CUDA error, a crash of
 * its worker), saved before anything else happens to it. Private to
 * harness/. */
#ifndef HARNESS_CRASH_H
#define HARNESS_CRASH_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"

/* Writes `c` with the target's message ("device_error") to a new file
 * device-error-<time>-<pid>-<k>.json in `dir` (created); `path` receives
 * its name. */
bool harness_crash_save(const char *dir, const gm_case *c, const char *message, char *path,
                        size_t path_size, gm_error *err);

/* Writes `c` with `key`: `extra` (taken over, deleted in any case) to a new
 * file <prefix>-<time>-<pid>-<k>.json in `dir` (created). */
bool harness_crash_save_as(const char *dir, const char *prefix, const gm_case *c, const char *key,
                           cJSON *extra, char *path, size_t path_size, gm_error *err);

#endif
