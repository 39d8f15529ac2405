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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_getopt.h"
#include "cli_options.h"
#include "cmd_report.h"
#include "coverage.h"
#include "gm_decimal.h"

#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif

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
    "  -h, --help     this text\n"
    "  tools: $LLVM_PROFDATA, $LLVM_COV, $CC (a clang) when set, else\n"
    "  llvm-profdata-N, llvm-cov-N, clang-N of one version N, else the plain names\n"
    "exit codes: 0 written, 2 usage, 3 DIR is not a folder or holds no inputs,\n"
    "4 a tool is missing or failed (cmake, the build, the runner, llvm-profdata,\n"
    "llvm-cov) or a file could not be written\n";

/* coverage's options. */
enum { CMD_COVERAGE_BUILD = 1000, CMD_COVERAGE_SOURCE, CMD_COVERAGE_JOBS };
static const struct option cmd_coverage_longs[] = {
    {"build", required_argument, NULL, CMD_COVERAGE_BUILD},
    {"source", required_argument, NULL, CMD_COVERAGE_SOURCE},
    {"jobs", required_argument, NULL, CMD_COVERAGE_JOBS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct {
    coverage_options o;
    bool help;
} cmd_coverage_args;

static bool cmd_coverage_jobs(const char *text, int *jobs) {
    uint64_t n = 0;
    if (!gm_decimal_parse(text, 1, 1024, &n)) {
        fprintf(stderr, "gmfuzz coverage: --jobs %s: not a number 1..1024\n", text);
        return false;
    }
    *jobs = (int)n;
    return true;
}

static bool cmd_coverage_take(void *ctx, const cli_getopt_item *item) {
    cmd_coverage_args *a = ctx;
    switch (item->code) {
    case 'h': a->help = true; return true;
    case CMD_COVERAGE_BUILD: a->o.build = item->value; return true;
    case CMD_COVERAGE_SOURCE: a->o.source = item->value; return true;
    case CMD_COVERAGE_JOBS: return cmd_coverage_jobs(item->value, &a->o.jobs);
    case CLI_GETOPT_ARG:
        if (a->o.dir != NULL) {
            fprintf(stderr, "gmfuzz coverage: takes one folder, got '%s' too\n", item->value);
            return false;
        }
        a->o.dir = item->value;
        return true;
    default:
        fprintf(stderr, "gmfuzz coverage: unknown option or missing value '%s'\n", item->flag);
        return false;
    }
}

static bool cmd_coverage_parse(int argc, char **argv, cmd_coverage_args *a) {
    memset(a, 0, sizeof *a);
    a->o.source = GMFUZZ_SOURCE_DIR;
    a->o.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (!cli_getopt_scan(argc, argv, "h", cmd_coverage_longs, cmd_coverage_take, a)) {
        return false;
    }
    if (!a->help && a->o.dir == NULL) {
        fprintf(stderr, "gmfuzz coverage: takes a campaign folder DIR\n");
        return false;
    }
    return true;
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
    int rc = coverage_main(&a.o);
    if (rc == COVERAGE_EXIT_OK) {
        cmd_coverage_reports(a.o.dir);
    }
    return rc;
}
