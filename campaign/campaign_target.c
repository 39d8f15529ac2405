#include "campaign_target.h"

#include "campaign_engine.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef GMFUZZ_FUZZ_BUILD_DIR
#define GMFUZZ_FUZZ_BUILD_DIR "fuzz"
#endif
#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif

/* The folder holding the running gmfuzz binary ("" when unknown). */
static void campaign_target_self_dir(char *out, size_t size) {
    out[0] = '\0';
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) {
        out[0] = '\0';
        return;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash != NULL) {
        *slash = '\0';
    }
}

/* Whether the file contains `marker` (read in chunks that overlap by the
 * marker's length, so that no occurrence is split). */
static bool campaign_target_contains(const char *path, const char *marker) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    const size_t m = strlen(marker);
    char buf[65536];
    size_t kept = 0;
    bool found = false;
    while (!found) {
        size_t n = fread(buf + kept, 1, sizeof buf - kept, f);
        if (n == 0) {
            break;
        }
        size_t have = kept + n;
        for (size_t i = 0; i + m <= have && !found; i++) {
            found = memcmp(buf + i, marker, m) == 0;
        }
        kept = have < m ? have : m - 1;
        memmove(buf, buf + have - kept, kept);
    }
    fclose(f);
    return found;
}

/* An executable `dir/name` that holds the engine's mark, if it has one
 * (campaign_engine.c: AFL++'s instrumentation). */
static bool campaign_target_try(const campaign_options *o, const char *dir, const char *name,
                                char *out, size_t size) {
    if (dir[0] == '\0' || snprintf(out, size, "%s/%s", dir, name) >= (int)size) {
        return false;
    }
    if (access(out, X_OK) != 0) {
        return false;
    }
    const char *mark = campaign_engine_of(o->engine)->binary_mark;
    return mark == NULL || campaign_target_contains(out, mark);
}

static bool campaign_target_explicit(const char *path, char *out, size_t size, gm_error *err) {
    if (access(path, X_OK) != 0) {
        return gm_error_set(err, GM_ERR_USAGE, "--target %s: not an executable file", path);
    }
    snprintf(out, size, "%s", path);
    return true;
}

bool campaign_target_find(const campaign_options *o, char *out, size_t size, gm_error *err) {
    const campaign_engine_traits *engine = campaign_engine_of(o->engine);
    if (engine->binaries == NULL) { /* the jobs are this very binary */
        ssize_t n = readlink("/proc/self/exe", out, size - 1);
        if (n <= 0) {
            return gm_error_set(err, GM_ERR_IO, "sweep: cannot find the gmfuzz binary");
        }
        out[n] = '\0';
        return true;
    }
    if (o->target != NULL) {
        return campaign_target_explicit(o->target, out, size, err);
    }
    char names[CAMPAIGN_ENGINE_BINARIES][64];
    int n_names = engine->binaries(o, names);
    char self[PATH_MAX], up[PATH_MAX + 8];
    campaign_target_self_dir(self, sizeof self);
    snprintf(up, sizeof up, "%s/../fuzz", self);
    const char *dirs[] = {GMFUZZ_FUZZ_BUILD_DIR, self, up};
    for (int k = 0; k < n_names; k++) {
        for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
            if (campaign_target_try(o, dirs[d], names[k], out, size)) {
                return true;
            }
        }
    }
    char looked[3 * PATH_MAX + 16];
    snprintf(looked, sizeof looked, "%s, %s", GMFUZZ_FUZZ_BUILD_DIR, self);
    return engine->missing(names[0], looked, err);
}
