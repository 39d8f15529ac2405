#include "coverage_tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COVERAGE_TOOLS_NEWEST 20
#define COVERAGE_TOOLS_OLDEST 10

/* `name` as a path: itself when it has a '/', else the first executable
 * of that name in PATH. */
static bool coverage_tools_which(const char *name, char *out, size_t size) {
    if (strchr(name, '/') != NULL) {
        return access(name, X_OK) == 0 && snprintf(out, size, "%s", name) < (int)size;
    }
    const char *path = getenv("PATH");
    for (const char *p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0';) {
        size_t n = strcspn(p, ":");
        if (n > 0 && snprintf(out, size, "%.*s/%s", (int)n, p, name) < (int)size &&
            access(out, X_OK) == 0) {
            return true;
        }
        p += n + (p[n] == ':' ? 1 : 0);
    }
    return false;
}

static bool coverage_tools_at(const char *tool, int version, char *out, size_t size) {
    char name[64];
    return version > 0 && snprintf(name, sizeof name, "%s-%d", tool, version) < (int)sizeof name &&
           coverage_tools_which(name, out, size);
}

/* tool-N for N = prefer first, then newest to oldest, then the plain
 * name; `*version` gets N (0: plain). */
static bool coverage_tools_versioned(const char *tool, int prefer, char *out, size_t size,
                                     int *version) {
    if (coverage_tools_at(tool, prefer, out, size)) {
        *version = prefer;
        return true;
    }
    for (int n = COVERAGE_TOOLS_NEWEST; n >= COVERAGE_TOOLS_OLDEST; n--) {
        if (coverage_tools_at(tool, n, out, size)) {
            *version = n;
            return true;
        }
    }
    *version = 0;
    return coverage_tools_which(tool, out, size);
}

/* The variable's program, when set; else the versioned search. */
static bool coverage_tools_one(const char *var, const char *tool, int prefer, char *out,
                               size_t size, int *version, gm_error *err) {
    const char *given = var != NULL ? getenv(var) : NULL;
    *version = prefer;
    if (given != NULL && given[0] != '\0') {
        if (!coverage_tools_which(given, out, size)) {
            return gm_error_set(err, GM_ERR_USAGE, "$%s=%s: no such program", var, given);
        }
        return true;
    }
    if (!coverage_tools_versioned(tool, prefer, out, size, version)) {
        return gm_error_set(err, GM_ERR_USAGE,
                            "%s not found: set $%s, or put %s-N (N = %d..%d) or %s in PATH",
                            tool, var != NULL ? var : "CC", tool, COVERAGE_TOOLS_OLDEST,
                            COVERAGE_TOOLS_NEWEST, tool);
    }
    return true;
}

/* $CC, when it is a clang (another compiler cannot build the tree). */
static const char *coverage_tools_cc(void) {
    const char *cc = getenv("CC");
    const char *base = cc != NULL ? strrchr(cc, '/') : NULL;
    base = base != NULL ? base + 1 : cc;
    return base != NULL && strncmp(base, "clang", 5) == 0 ? "CC" : NULL;
}

bool coverage_tools_find(coverage_tools *t, gm_error *err) {
    int v = 0, unused = 0;
    return coverage_tools_one("LLVM_PROFDATA", "llvm-profdata", 0, t->profdata,
                              sizeof t->profdata, &v, err) &&
           coverage_tools_one("LLVM_COV", "llvm-cov", v, t->cov, sizeof t->cov, &unused, err) &&
           coverage_tools_one(coverage_tools_cc(), "clang", v, t->clang, sizeof t->clang,
                              &unused, err);
}
