/* gmfuzz report DIR [--baseline FILE | --strict-baseline] [--out OUTDIR]
 *
 * Reads a run folder (a campaign's, or any folder of reproducers) and
 * writes report.md, summary.json, junit.xml and report.html into OUTDIR
 * (default DIR), then prints their paths. A plain folder of reproducers
 * needs --out: every *.json in it is read as a reproducer, so the reports
 * must not go there.
 *
 * The baseline, unless given: the folder's known.json (the copy a campaign
 * keeps of the baseline it judged against), else the source tree's
 * corpus/known.json (campaign_record.h).
 *
 * Exit codes: 0 nothing new, 1 new signatures, 2 usage (also: no baseline
 * to be found), 3 the folder or the baseline could not be read, a report
 * could not be written, or none of the folder's files could be read (the
 * report is still written, to show why).
 */
#include "cmd_report.h"

#include <stdio.h>
#include <string.h>

#include "campaign.h"
#include "cli_options.h"
#include "triage.h"
#include "repro.h"
#include "report.h"

enum { CMD_REPORT_EXIT_FAILED = 3 };

static const char cmd_report_usage[] =
    "usage: gmfuzz report DIR [--baseline FILE | --strict-baseline] [--out OUTDIR]\n"
    "  writes report.md, summary.json, junit.xml and report.html for run folder DIR\n"
    "  into OUTDIR (default DIR; a plain folder of reproducers needs --out)\n"
    "  --baseline FILE    what is known (default: DIR/known.json, the campaign's own\n"
    "                     copy, else the source tree's corpus/known.json)\n"
    "  --strict-baseline  nothing is known: every signature is new\n"
    "  --out OUTDIR       where the reports go (default DIR)\n"
    "  -h, --help         this text\n"
    "exit codes: 0 nothing new, 1 new signatures, 2 usage, 3 unreadable folder or\n"
    "baseline, a report that could not be written, or not one of the folder's files\n"
    "readable\n";

typedef struct {
    const char *dir;
    const char *out;
    const char *baseline;
    bool strict;
    bool help;
} cmd_report_args;

/* report's options. */
enum { CMD_REPORT_STRICT = 1000, CMD_REPORT_BASELINE, CMD_REPORT_OUT };
static const struct option cmd_report_longs[] = {
    {"strict-baseline", no_argument, NULL, CMD_REPORT_STRICT},
    {"baseline", required_argument, NULL, CMD_REPORT_BASELINE},
    {"out", required_argument, NULL, CMD_REPORT_OUT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static bool cmd_report_take(void *ctx, const cli_getopt_item *item) {
    cmd_report_args *a = ctx;
    switch (item->code) {
    case 'h': a->help = true; return true;
    case CMD_REPORT_STRICT: a->strict = true; return true;
    case CMD_REPORT_BASELINE: a->baseline = item->value; return true;
    case CMD_REPORT_OUT: a->out = item->value; return true;
    case CLI_GETOPT_ARG:
        if (a->dir != NULL) {
            fprintf(stderr, "gmfuzz report: takes one folder, got '%s' too\n", item->value);
            return false;
        }
        a->dir = item->value;
        return true;
    default:
        fprintf(stderr, "gmfuzz report: unknown option or missing value '%s'\n", item->flag);
        return false;
    }
}

static bool cmd_report_parse(int argc, char **argv, cmd_report_args *a) {
    memset(a, 0, sizeof *a);
    if (!cli_getopt_scan(argc, argv, "h", cmd_report_longs, cmd_report_take, a)) {
        return false;
    }
    if (!a->help && (a->dir == NULL || (a->strict && a->baseline != NULL))) {
        fprintf(stderr, "gmfuzz report: %s\n",
                a->dir == NULL ? "takes a run folder DIR"
                               : "--baseline and --strict-baseline exclude each other");
        return false;
    }
    return true;
}

/* The baseline to judge the folder against; the exit code on failure. */
static int cmd_report_baseline(const cmd_report_args *a, triage_baseline **b) {
    gm_error err = {0};
    char found[4096];
    if (a->strict) {
        return triage_baseline_empty(b, &err) ? CLI_EXIT_OK : CMD_REPORT_EXIT_FAILED;
    }
    const char *path = a->baseline;
    if (path == NULL && campaign_record_baseline_for(a->dir, found, sizeof found)) {
        path = found;
    }
    if (path == NULL) {
        fprintf(stderr, "gmfuzz report: no baseline: %s has no known.json and the source "
                        "tree's corpus/known.json is missing; pass --baseline FILE or "
                        "--strict-baseline\n", a->dir);
        return CLI_EXIT_USAGE;
    }
    if (!triage_baseline_load(path, b, &err)) {
        fprintf(stderr, "gmfuzz report: %s\n", err.msg);
        return CMD_REPORT_EXIT_FAILED;
    }
    fprintf(stderr, "gmfuzz report: baseline %s\n", path);
    return CLI_EXIT_OK;
}

static void cmd_report_print(const repro_rundir *r, const char *out) {
    static const char *const names[] = {"report.md", "summary.json", "junit.xml", "report.html"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        printf("wrote %s/%s\n", out, names[i]);
    }
    size_t fresh = repro_rundir_new(r);
    printf("%zu signature%s in %zu failing input%s: %zu new\n", r->n_sigs,
           r->n_sigs == 1 ? "" : "s", r->inputs, r->inputs == 1 ? "" : "s", fresh);
    if (r->campaign.present && r->campaign.problem != NULL) {
        printf("the campaign had a problem: %s\n", r->campaign.problem);
    }
}

/* Loads the folder and writes its reports; the exit code. */
static int cmd_report_run(const cmd_report_args *a, const triage_baseline *b) {
    repro_rundir r;
    gm_error err = {0};
    const char *out = a->out != NULL ? a->out : a->dir;
    int rc = CMD_REPORT_EXIT_FAILED;
    if (!repro_rundir_load(a->dir, b, &r, &err)) {
        fprintf(stderr, "gmfuzz report: %s\n", err.msg);
    } else if (!r.is_campaign && a->out == NULL) {
        /* Its *.json files are its reproducers: summary.json would join them. */
        fprintf(stderr, "gmfuzz report: %s is a folder of reproducers, not a run folder: "
                        "pass --out OUTDIR (outside it)\n", a->dir);
        rc = CLI_EXIT_USAGE;
    } else if (!report_write_all(&r, out, &err)) {
        fprintf(stderr, "gmfuzz report: %s\n", err.msg);
    } else {
        cmd_report_print(&r, out);
        rc = repro_rundir_new(&r) > 0 ? CLI_EXIT_FINDING : CLI_EXIT_OK;
        if (r.inputs == 0 && r.unreadable > 0) {
            /* Written, so that the problem shows, but not a pass. */
            fprintf(stderr, "gmfuzz report: %s: none of its %zu file%s could be read; the last: "
                            "%s\n", a->dir, r.unreadable, r.unreadable == 1 ? "" : "s",
                    r.last_problem);
            rc = CMD_REPORT_EXIT_FAILED;
        }
    }
    repro_rundir_free(&r);
    return rc;
}

int cmd_report_main(int argc, char **argv) {
    cmd_report_args a;
    if (!cmd_report_parse(argc, argv, &a)) {
        fputs(cmd_report_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.help) {
        fputs(cmd_report_usage, stdout);
        return CLI_EXIT_OK;
    }
    triage_baseline *b = NULL;
    int rc = cmd_report_baseline(&a, &b);
    if (rc == CLI_EXIT_OK) {
        rc = cmd_report_run(&a, b);
    }
    triage_baseline_free(b);
    return rc;
}
