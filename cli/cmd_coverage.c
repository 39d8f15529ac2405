/* gmfuzz coverage DIR [--build TREE] [--source SRC] [--jobs N]
 *
 * Source coverage of what matters, for a campaign folder: builds (or
 * reuses) a tree of the project's CMake with -DGMFUZZ_COVERAGE=ON
 * (coverage_build.h), runs the campaign's inputs through its runner
 * (coverage_run.h), merges the profiles and writes, into DIR/coverage/:
 * html/ (llvm-cov show), summary.json and summary.txt (coverage_summary.h:
 * the semantics, the reference and the oracle, and what the semantics and
 * the reference never reached), export.json (llvm-cov export's own), the
 * tools' output in coverage.log. Then the campaign's reports are written
 * again (as by gmfuzz report DIR), so that report.html links the coverage.
 *
 * Exit codes: 0 written, 2 usage, 3 DIR is not a folder or holds no
 * inputs, 4 a tool is missing or failed (cmake, the build, the runner,
 * llvm-profdata, llvm-cov) or a file could not be written.
 */
#include "cmd_coverage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_options.h"
#include "cmd_report.h"
#include "coverage_build.h"
#include "coverage_export.h"
#include "coverage_proc.h"
#include "coverage_run.h"
#include "coverage_summary.h"
#include "coverage_tools.h"
#include "harness.h"

#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif
#ifndef GMFUZZ_CMAKE
#define GMFUZZ_CMAKE "cmake"
#endif

enum { CMD_COVERAGE_EXIT_FOLDER = 3, CMD_COVERAGE_EXIT_TOOL = 4 };

static const char cmd_coverage_usage[] =
    "usage: gmfuzz coverage DIR [--build TREE] [--source SRC] [--jobs N]\n"
    "  source coverage of campaign folder DIR: builds a clang source-based coverage\n"
    "  tree of the project (-DGMFUZZ_COVERAGE=ON, CPU backend; reused when it is\n"
    "  one already), runs DIR's corpus, crash files, failures and reproducers\n"
    "  through it once each, and writes DIR/coverage/: html/index.html,\n"
    "  summary.json and summary.txt (lines and branches of kernel/fused_program.h,\n"
    "  reference/ and the oracle; the branches and lines the semantics and the\n"
    "  reference never reached); then DIR's reports again, linking it\n"
    "  --build TREE   the coverage build tree (default DIR/coverage/build)\n"
    "  --source SRC   gmfuzz's source folder (default: the one this gmfuzz was built\n"
    "                 from, " GMFUZZ_SOURCE_DIR ")\n"
    "  --jobs N       parallel build jobs (default: the number of CPUs)\n"
    "  tools: $LLVM_PROFDATA, $LLVM_COV, $CC (a clang) when set, else\n"
    "  llvm-profdata-N, llvm-cov-N, clang-N of one version N, else the plain names\n"
    "exit codes: 0 written, 2 usage, 3 DIR is not a folder or holds no inputs,\n"
    "4 a tool is missing or failed (cmake, the build, the runner, llvm-profdata,\n"
    "llvm-cov) or a file could not be written\n";

typedef struct {
    const char *dir, *build, *source;
    int jobs;
    bool help;
} cmd_coverage_args;

static bool cmd_coverage_parse(int argc, char **argv, cmd_coverage_args *a) {
    memset(a, 0, sizeof *a);
    a->source = GMFUZZ_SOURCE_DIR;
    a->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        char *end = NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
        } else if (strcmp(arg, "--build") == 0 && has_value) {
            a->build = argv[++i];
        } else if (strcmp(arg, "--source") == 0 && has_value) {
            a->source = argv[++i];
        } else if (strcmp(arg, "--jobs") == 0 && has_value) {
            a->jobs = (int)strtol(argv[++i], &end, 10);
            if (*end != '\0' || a->jobs < 1 || a->jobs > 1024) {
                fprintf(stderr, "gmfuzz coverage: --jobs %s: not a number 1..1024\n", argv[i]);
                return false;
            }
        } else if (arg[0] == '-') {
            fprintf(stderr, "gmfuzz coverage: unknown option or missing value '%s'\n", arg);
            return false;
        } else if (a->dir == NULL) {
            a->dir = arg;
        } else {
            fprintf(stderr, "gmfuzz coverage: takes one folder, got '%s' too\n", arg);
            return false;
        }
    }
    if (!a->help && a->dir == NULL) {
        fprintf(stderr, "gmfuzz coverage: takes a campaign folder DIR\n");
        return false;
    }
    return true;
}

typedef struct {
    char out[PATH_MAX], build[PATH_MAX], log[PATH_MAX], runner[PATH_MAX], json[PATH_MAX];
    coverage_tools tools;
    coverage_run run;
} cmd_coverage_state;

/* The cmake that configured this gmfuzz, else the one in PATH. */
static const char *cmd_coverage_cmake(void) {
    return access(GMFUZZ_CMAKE, X_OK) == 0 ? GMFUZZ_CMAKE : "cmake";
}

static bool cmd_coverage_prepare(const cmd_coverage_args *a, cmd_coverage_state *s,
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
    if (!harness_paths_make_dirs(s->out, err)) {
        return false;
    }
    FILE *log = fopen(s->log, "w"); /* this run's output only */
    if (log == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot write it", s->log);
    }
    fclose(log);
    return true;
}

static bool cmd_coverage_build(const cmd_coverage_args *a, cmd_coverage_state *s,
                               gm_error *err) {
    coverage_build_config c = {a->source, s->build, s->log, cmd_coverage_cmake(), a->jobs};
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

static bool cmd_coverage_html(cmd_coverage_state *s, gm_error *err) {
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

static bool cmd_coverage_summary(const cmd_coverage_args *a, cmd_coverage_state *s,
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

/* The campaign's reports again, now with the link (a plain folder of
 * reproducers has none to rewrite). */
static void cmd_coverage_reports(const char *dir) {
    char campaign[PATH_MAX];
    struct stat st;
    snprintf(campaign, sizeof campaign, "%s/campaign.json", dir);
    if (stat(campaign, &st) != 0) {
        fprintf(stderr, "gmfuzz coverage: %s has no campaign.json: its reports were not "
                        "rewritten (gmfuzz report %s --out OUTDIR links the coverage)\n",
                dir, dir);
        return;
    }
    char *argv[] = {"report", (char *)dir, NULL};
    fflush(stdout);
    cmd_report_main(2, argv);
}

static int cmd_coverage_run(const cmd_coverage_args *a) {
    cmd_coverage_state *s = calloc(1, sizeof *s);
    gm_error err = {0};
    struct stat st;
    int rc = CMD_COVERAGE_EXIT_TOOL;
    if (s == NULL) {
        gm_error_set(&err, GM_ERR_MEMORY, "out of memory");
    } else if (stat(a->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gm_error_set(&err, GM_ERR_IO, "%s: no such folder", a->dir);
        rc = CMD_COVERAGE_EXIT_FOLDER;
    } else if (coverage_tools_find(&s->tools, &err) && cmd_coverage_prepare(a, s, &err) &&
               cmd_coverage_build(a, s, &err)) {
        s->run = (coverage_run){.dir = a->dir, .out = s->out, .runner = s->runner, .log = s->log};
        if (!coverage_run_profile(&s->run, &s->tools, &err)) {
            rc = s->run.folders == 0 ? CMD_COVERAGE_EXIT_FOLDER : CMD_COVERAGE_EXIT_TOOL;
        } else {
            fprintf(stderr, "gmfuzz coverage: %s\n", s->run.counts);
            rc = cmd_coverage_html(s, &err) && cmd_coverage_summary(a, s, &err)
                     ? CLI_EXIT_OK
                     : CMD_COVERAGE_EXIT_TOOL;
        }
    }
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "gmfuzz coverage: %s\n", err.msg);
    } else {
        cmd_coverage_reports(a->dir);
    }
    free(s);
    return rc;
}

int cmd_coverage_main(int argc, char **argv) {
    cmd_coverage_args a;
    if (!cmd_coverage_parse(argc, argv, &a)) {
        fputs(cmd_coverage_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.help) {
        fputs(cmd_coverage_usage, stdout);
        return CLI_EXIT_OK;
    }
    return cmd_coverage_run(&a);
}
