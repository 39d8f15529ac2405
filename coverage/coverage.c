/* coverage: `gmfuzz coverage` from its options to its exit code
 * (coverage.h). */
#include "coverage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coverage_build.h"
#include "coverage_export.h"
#include "coverage_proc.h"
#include "coverage_run.h"
#include "coverage_summary.h"
#include "coverage_tools.h"
#include "harness.h"
#include "gm_file.h"

#ifndef GMFUZZ_CMAKE
#define GMFUZZ_CMAKE "cmake"
#endif

typedef struct {
    char out[PATH_MAX], build[PATH_MAX], log[PATH_MAX], runner[PATH_MAX], json[PATH_MAX];
    coverage_tools tools;
    coverage_run run;
} coverage_state;

/* The cmake that configured this gmfuzz, else the one in PATH. */
static const char *coverage_cmake(void) {
    return access(GMFUZZ_CMAKE, X_OK) == 0 ? GMFUZZ_CMAKE : "cmake";
}

static bool coverage_prepare(const coverage_options *a, coverage_state *s,
                                 gm_error *err) {
    /* Room for every name the command puts under DIR and the tree. */
    size_t dir_len = strlen(a->dir), build_len = a->build != NULL ? strlen(a->build) : 0;
    if (dir_len > PATH_MAX - 128 || build_len > PATH_MAX - 128) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long",
                            dir_len > PATH_MAX - 128 ? "DIR" : "--build");
    }
    /* (the lengths were checked above; the results are checked anyway, so
     * that no compiler has to prove it) */
    bool fits = snprintf(s->out, sizeof s->out, "%s/coverage", a->dir) < (int)sizeof s->out;
    if (a->build != NULL) {
        fits = fits && snprintf(s->build, sizeof s->build, "%s", a->build) < (int)sizeof s->build;
    } else {
        fits = fits &&
               snprintf(s->build, sizeof s->build, "%s/build", s->out) < (int)sizeof s->build;
    }
    fits = fits && snprintf(s->log, sizeof s->log, "%s/coverage.log", s->out) < (int)sizeof s->log;
    fits = fits &&
           snprintf(s->json, sizeof s->json, "%s/export.json", s->out) < (int)sizeof s->json;
    if (!fits) {
        return gm_error_set(err, GM_ERR_USAGE, "DIR: path too long");
    }
    if (!gm_file_make_dirs(s->out, err)) {
        return false;
    }
    FILE *log = fopen(s->log, "w"); /* this run's output only */
    if (log == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot write it", s->log);
    }
    fclose(log);
    return true;
}

static bool coverage_make_tree(const coverage_options *a, coverage_state *s,
                               gm_error *err) {
    coverage_build_config c = {a->source, s->build, s->log, coverage_cmake(), a->jobs};
    bool reused = false;
    fprintf(stderr, "gmfuzz coverage: building %s (clang %s; output in %s)\n", s->build,
            s->tools.clang, s->log);
    if (!coverage_build_runner(&c, &s->tools, s->runner, &reused, err)) {
        return false;
    }
    fprintf(stderr, "gmfuzz coverage: %s tree %s\n", reused ? "reused the" : "configured a new",
            s->build);
    return true;
}

static bool coverage_html(coverage_state *s, gm_error *err) {
    char profile[PATH_MAX + 32], outdir[PATH_MAX + 32];
    snprintf(profile, sizeof profile, "-instr-profile=%s", s->run.profdata);
    snprintf(outdir, sizeof outdir, "-output-dir=%s/html", s->out);
    char *show[] = {s->tools.cov, "show", s->runner, profile, "-format=html", outdir,
                    "-show-branches=count", "-show-line-counts-or-regions", NULL};
    char *export[] = {s->tools.cov, "export", s->runner, profile, "-format=text",
                      "-skip-functions", NULL};
    return coverage_proc_run(show, NULL, NULL, s->log, err) &&
           coverage_proc_run(export, NULL, s->json, s->log, err);
}

static bool coverage_write_summary(const coverage_options *a, coverage_state *s,
                                 gm_error *err) {
    coverage_export x;
    if (!coverage_export_read(s->json, a->source, &x, err)) {
        return false;
    }
    coverage_summary_info info = {a->dir, a->source, s->run.counts, s->out};
    bool ok = coverage_summary_write(&info, &x, err);
    if (ok) {
        coverage_summary_table(stdout, &x);
        printf("wrote %s/summary.json\nwrote %s/summary.txt\nwrote %s/html/index.html\n",
               s->out, s->out, s->out);
    }
    coverage_export_free(&x);
    return ok;
}

int coverage_main(const coverage_options *a) {
    coverage_state *s = calloc(1, sizeof *s);
    gm_error err = {0};
    struct stat st;
    int rc = COVERAGE_EXIT_TOOL;
    if (s == NULL) {
        gm_error_set(&err, GM_ERR_MEMORY, "out of memory");
    } else if (stat(a->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gm_error_set(&err, GM_ERR_IO, "%s: no such folder", a->dir);
        rc = COVERAGE_EXIT_FOLDER;
    } else if (coverage_tools_find(&s->tools, &err) && coverage_prepare(a, s, &err) &&
               coverage_make_tree(a, s, &err)) {
        s->run = (coverage_run){.dir = a->dir, .out = s->out, .runner = s->runner, .log = s->log};
        if (!coverage_run_profile(&s->run, &s->tools, &err)) {
            rc = s->run.folders == 0 ? COVERAGE_EXIT_FOLDER : COVERAGE_EXIT_TOOL;
        } else {
            fprintf(stderr, "gmfuzz coverage: %s\n", s->run.counts);
            rc = coverage_html(s, &err) && coverage_write_summary(a, s, &err)
                     ? COVERAGE_EXIT_OK
                     : COVERAGE_EXIT_TOOL;
        }
    }
    if (rc != COVERAGE_EXIT_OK) {
        fprintf(stderr, "gmfuzz coverage: %s\n", err.msg);
    }
    free(s);
    return rc;
}

