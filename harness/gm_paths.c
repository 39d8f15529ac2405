#include "gm_paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void gm_paths_init(gm_paths *p) { memset(p, 0, sizeof *p); }

void gm_paths_free(gm_paths *p) {
    for (size_t i = 0; i < p->count; i++) {
        free(p->items[i]);
    }
    free(p->items);
    gm_paths_init(p);
}

static bool gm_paths_push(gm_paths *p, const char *path, gm_error *err) {
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

static bool gm_paths_is_json(const char *name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int gm_paths_compare(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool gm_paths_add_dir(gm_paths *p, const char *dir, gm_error *err) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open folder: %s", dir, strerror(errno));
    }
    size_t first = p->count;
    bool ok = true;
    for (struct dirent *e = readdir(d); ok && e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.') {
            continue; /* ., .., and hidden files (editors' temporaries) */
        }
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *child = malloc(n);
        if (child == NULL) {
            ok = gm_error_set(err, GM_ERR_MEMORY, "out of memory listing %s", dir);
            break;
        }
        snprintf(child, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            ok = gm_paths_add_dir(p, child, err);
        } else if (gm_paths_is_json(e->d_name)) {
            ok = gm_paths_push(p, child, err);
        }
        free(child);
    }
    closedir(d);
    if (p->count > first) { /* items is NULL while nothing was found */
        qsort(p->items + first, p->count - first, sizeof *p->items, gm_paths_compare);
    }
    return ok;
}

bool gm_paths_add(gm_paths *p, const char *path, gm_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: %s", path, strerror(errno));
    }
    return S_ISDIR(st.st_mode) ? gm_paths_add_dir(p, path, err) : gm_paths_push(p, path, err);
}

bool gm_paths_make_dirs(const char *dir, gm_error *err) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path || path[0] == '\0') {
        return gm_error_set(err, GM_ERR_IO, "%s: bad folder name (empty or too long)", dir);
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') {
            continue;
        }
        char kept = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            return gm_error_set(err, GM_ERR_IO, "%s: cannot create %s: %s", dir, path,
                                strerror(errno));
        }
        *p = kept;
        if (kept == '\0') {
            return true;
        }
    }
}
