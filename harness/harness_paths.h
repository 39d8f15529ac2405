/* harness_paths: expands the paths given on the command line (files, or
 * folders searched recursively for *.json) into a sorted list, so that
 * replays are deterministic; and creates the folders results go to. */
#ifndef HARNESS_PATHS_H
#define HARNESS_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

typedef struct {
    char **items;
    size_t count;
    size_t capacity;
} harness_paths;

void harness_paths_init(harness_paths *p);
void harness_paths_free(harness_paths *p);

/* Adds `path`: a file as it is, a folder's *.json files (recursively,
 * sorted by path; hidden names skipped; a symbolic link is taken when it
 * names a *.json file and never followed into a folder, so that a link
 * loop cannot hang the walk). A path that does not exist is an error
 * naming it. */
bool harness_paths_add(harness_paths *p, const char *path, gm_error *err);

/* mkdir -p: creates `dir` and its missing parents; an existing folder is
 * fine. The error names the part that could not be created. */
bool harness_paths_make_dirs(const char *dir, gm_error *err);

#endif
