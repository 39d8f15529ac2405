/* realpath() is an XSI function in glibc's headers. */
#define _XOPEN_SOURCE 700

#include "coverage_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "coverage_proc.h"

/* Whether `dir` holds the project: its CMakeLists.txt and the semantics. */
static bool coverage_build_is_source(const char *dir) {
    char path[PATH_MAX];
    struct stat st;
    return snprintf(path, sizeof path, "%s/kernel/fused_program.h", dir) < (int)sizeof path &&
           stat(path, &st) == 0 &&
           snprintf(path, sizeof path, "%s/CMakeLists.txt", dir) < (int)sizeof path &&
           stat(path, &st) == 0;
}

/* The value of `key` ("NAME:TYPE=") in the tree's CMakeCache.txt; false
 * when there is no cache or no such entry. */
static bool coverage_build_cached(const char *build, const char *key, char *value,
                                  size_t size) {
    char path[PATH_MAX], line[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/CMakeCache.txt", build);
    FILE *f = fopen(path, "r");
    bool found = false;
    while (f != NULL && !found && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, strlen(key)) == 0) {
            snprintf(value, size, "%s", line + strlen(key));
            value[strcspn(value, "\r\n")] = '\0';
            found = true;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return found;
}

/* Whether the tree is configured, for coverage, from this very source;
 * an error when it is some other tree (it is not ours to reconfigure). */
static bool coverage_build_reusable(const coverage_build_config *c, bool *reusable,
                                    gm_error *err) {
    char home[PATH_MAX], option[64];
    *reusable = false;
    if (!coverage_build_cached(c->build, "CMAKE_HOME_DIRECTORY:INTERNAL=", home, sizeof home)) {
        return true;
    }
    char *ours = realpath(c->source, NULL), *theirs = realpath(home, NULL);
    bool same = ours != NULL && theirs != NULL && strcmp(ours, theirs) == 0;
    free(ours);
    free(theirs);
    if (!same) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: a build tree of another source (%s), not "
                            "of %s: give --build a folder of its own", c->build, home, c->source);
    }
    if (!coverage_build_cached(c->build, "GMFUZZ_COVERAGE:BOOL=", option, sizeof option) ||
        strcmp(option, "ON") != 0) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: a build tree without GMFUZZ_COVERAGE=ON: "
                            "give --build a folder of its own", c->build);
    }
    *reusable = true;
    return true;
}

static bool coverage_build_configure(const coverage_build_config *c, const coverage_tools *t,
                                     gm_error *err) {
    char compiler[PATH_MAX + 32];
    snprintf(compiler, sizeof compiler, "-DCMAKE_C_COMPILER=%s", t->clang);
    /* Debug: -O0, so that every line keeps its own code; the project uses
     * no assert(), so Debug adds no branch that a Release build lacks. */
    char *argv[] = {(char *)c->cmake, "-S", (char *)c->source, "-B", (char *)c->build, compiler,
                    "-DCMAKE_BUILD_TYPE=Debug", "-DGMFUZZ_COVERAGE=ON", "-DGMFUZZ_CUDA=OFF",
                    "-DBUILD_TESTING=OFF", NULL};
    return coverage_proc_run(argv, NULL, NULL, c->log, err);
}

bool coverage_build_runner(const coverage_build_config *c, const coverage_tools *t,
                           char runner[PATH_MAX], bool *reused, gm_error *err) {
    if (!coverage_build_is_source(c->source)) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: not gmfuzz's source folder (no "
                            "CMakeLists.txt and kernel/fused_program.h): pass --source DIR",
                            c->source);
    }
    if (!coverage_build_reusable(c, reused, err) ||
        (!*reused && !coverage_build_configure(c, t, err))) {
        return false;
    }
    char jobs[16];
    snprintf(jobs, sizeof jobs, "%d", c->jobs > 0 ? c->jobs : 1);
    char *argv[] = {(char *)c->cmake, "--build", (char *)c->build, "--target",
                    "gmfuzz-coverage-runner", "-j", jobs, NULL};
    if (!coverage_proc_run(argv, NULL, NULL, c->log, err)) {
        return false;
    }
    if (snprintf(runner, PATH_MAX, "%s/coverage/gmfuzz-coverage-runner", c->build) >= PATH_MAX) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", c->build);
    }
    return true;
}
