#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <fts.h>

void harness_paths_init(harness_paths *p) { memset(p, 0, sizeof *p); }

void harness_paths_free(harness_paths *p) {
    for (size_t i = 0; i < p->count; i++) {
        free(p->items[i]);
    }
    free(p->items);
    harness_paths_init(p);
}

static bool harness_paths_push(harness_paths *p, const char *path, gm_error *err) {
    if (p->count == p->capacity) {
        size_t grown = p->capacity ? p->capacity * 2 : 64;
        char **items = realloc(p->items, grown * sizeof *items);
        if (items == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "out of memory listing files");
        }
        p->items = items;
        p->capacity = grown;
    }
    size_t n = strlen(path) + 1;
    p->items[p->count] = malloc(n);
    if (p->items[p->count] == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory listing files");
    }
    memcpy(p->items[p->count++], path, n);
    return true;
}

static bool harness_paths_is_json(const char *name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int harness_paths_compare(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a symbolic link (never followed into: a link to a folder above
 * would loop) names a regular *.json file. */
static bool harness_paths_link_to_json(const FTSENT *e) {
    struct stat st;
    return harness_paths_is_json(e->fts_name) && stat(e->fts_path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder's *.json files, walked physically (fts: links met in the walk
 * are not followed, so a link loop cannot hang it; the folder itself may
 * be named through a link, as `find -H` takes it), hidden names skipped
 * (., .., editors' temporaries), sorted by path. */
static bool harness_paths_add_dir(harness_paths *p, const char *dir, gm_error *err) {
    char *roots[] = {(char *)dir, NULL};
    FTS *walk = fts_open(roots, FTS_PHYSICAL | FTS_COMFOLLOW | FTS_NOCHDIR, NULL);
    if (walk == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open folder: %s", dir, strerror(errno));
    }
    size_t first = p->count;
    bool ok = true;
    FTSENT *e;
    while (ok && (e = fts_read(walk)) != NULL) {
        bool hidden = e->fts_level > 0 && e->fts_name[0] == '.';
        switch (e->fts_info) {
        case FTS_D:
            if (hidden) {
                fts_set(walk, e, FTS_SKIP);
            }
            break;
        case FTS_F:
            ok = hidden || !harness_paths_is_json(e->fts_name) ||
                 harness_paths_push(p, e->fts_path, err);
            break;
        case FTS_SL:
        case FTS_SLNONE:
            ok =
                hidden || !harness_paths_link_to_json(e) || harness_paths_push(p, e->fts_path, err);
            break;
        case FTS_DNR:
        case FTS_ERR:
            ok = gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", e->fts_path,
                              strerror(e->fts_errno));
            break;
        default: break;
        }
    }
    fts_close(walk);
    if (p->count > first) { /* items is NULL while nothing was found */
        qsort(p->items + first, p->count - first, sizeof *p->items, harness_paths_compare);
    }
    return ok;
}

bool harness_paths_add(harness_paths *p, const char *path, gm_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: %s", path, strerror(errno));
    }
    return S_ISDIR(st.st_mode) ? harness_paths_add_dir(p, path, err)
                               : harness_paths_push(p, path, err);
}

