/* gmfuzz triage DIR [--baseline FILE | --strict-baseline] [--json]
 *
 * Groups the failing inputs of a run folder (or any folder of reproducers)
 * by signature (repro/repro.h) and prints one row per signature: NEW
 * or known (with the baseline's decision), how many inputs, first and last
 * seen, the smallest reproducer and the signature; then each stale
 * reproducer (its recorded signature is not what its outputs give: new,
 * never known) and the totals. With
 * --json, the gmfuzz-triage-v1 document instead (docs/FORMATS.md).
 *
 * The baseline, unless given: the folder's known.json (the copy a campaign
 * keeps of the baseline it judged against), else the source tree's
 * corpus/known.json, as `gmfuzz report` finds it (campaign_record.h).
 *
 * Exit codes: 0 nothing new, 1 a new signature, 2 usage (also: no baseline
 * to be found), 3 the folder or the baseline could not be read, or none of
 * the folder's files could be read as a reproducer.
 */
#include "cmd_triage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "cli_options.h"
#include "triage.h"
#include "repro.h"

enum { CMD_TRIAGE_EXIT_UNREADABLE = 3 };

static const char cmd_triage_usage[] =
    "usage: gmfuzz triage DIR [--baseline FILE | --strict-baseline] [--json]\n"
    "  groups the failing inputs of run folder DIR (or any folder of reproducers)\n"
    "  by signature: count, first and last seen, smallest reproducer, known or NEW\n"
    "  --baseline FILE    what is known (default: DIR/known.json, the campaign's own\n"
    "                     copy, else the source tree's corpus/known.json)\n"
    "  --strict-baseline  nothing is known: every signature is new\n"
    "  --json             print a gmfuzz-triage-v1 document instead of the table\n"
    "  -h, --help         this text\n"
    "exit codes: 0 nothing new, 1 a new signature, 2 usage, 3 unreadable folder or\n"
    "baseline, or not one of the folder's files readable\n";

typedef struct {
    const char *dir;
    const char *baseline;
    bool strict;
    bool json;
    bool help;
} cmd_triage_args;

/* triage's options. */
enum { CMD_TRIAGE_STRICT = 1000, CMD_TRIAGE_JSON, CMD_TRIAGE_BASELINE };
static const struct option cmd_triage_longs[] = {
    {"strict-baseline", no_argument, NULL, CMD_TRIAGE_STRICT},
    {"json", no_argument, NULL, CMD_TRIAGE_JSON},
    {"baseline", required_argument, NULL, CMD_TRIAGE_BASELINE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* One flag or the folder; false on anything else. */
static bool cmd_triage_take(void *ctx, const cli_getopt_item *item) {
    cmd_triage_args *a = ctx;
    switch (item->code) {
    case 'h': a->help = true; return true;
    case CMD_TRIAGE_STRICT: a->strict = true; return true;
    case CMD_TRIAGE_JSON: a->json = true; return true;
    case CMD_TRIAGE_BASELINE: a->baseline = item->value; return true;
    case CLI_GETOPT_ARG:
        if (a->dir != NULL) {
            fprintf(stderr, "gmfuzz triage: takes one folder, got '%s' too\n", item->value);
            return false;
        }
        a->dir = item->value;
        return true;
    default:
        fprintf(stderr, "gmfuzz triage: unknown option or missing value '%s'\n", item->flag);
        return false;
    }
}

static bool cmd_triage_parse(int argc, char **argv, cmd_triage_args *a) {
    memset(a, 0, sizeof *a);
    if (!cli_getopt_scan(argc, argv, "h", cmd_triage_longs, cmd_triage_take, a)) {
        return false;
    }
    if (a->help) {
        return true;
    }
    if (a->dir == NULL || (a->strict && a->baseline != NULL)) {
        fprintf(stderr, "gmfuzz triage: %s (see gmfuzz triage --help)\n",
                a->dir == NULL ? "takes a run folder DIR"
                               : "--baseline and --strict-baseline exclude each other");
        return false;
    }
    return true;
}

/* The baseline to judge against, and its path (NULL: --strict-baseline);
 * CLI_EXIT_OK or the exit code. */
static int cmd_triage_baseline(const cmd_triage_args *a, triage_baseline **b, char *path,
                               size_t size) {
    gm_error err = {0};
    path[0] = '\0';
    if (a->strict) {
        return triage_baseline_empty(b, &err) ? CLI_EXIT_OK : CMD_TRIAGE_EXIT_UNREADABLE;
    }
    if (a->baseline != NULL) {
        snprintf(path, size, "%s", a->baseline);
    } else if (!campaign_record_baseline_for(a->dir, path, size)) {
        fprintf(stderr, "gmfuzz triage: no baseline: %s has no known.json and the source "
                        "tree's corpus/known.json is missing; pass --baseline FILE or "
                        "--strict-baseline\n", a->dir);
        return CLI_EXIT_USAGE;
    }
    if (!triage_baseline_load(path, b, &err)) {
        fprintf(stderr, "gmfuzz triage: %s\n", err.msg);
        return CMD_TRIAGE_EXIT_UNREADABLE;
    }
    return CLI_EXIT_OK;
}

/* ---- the table ----------------------------------------------------------- */

/* "NEW", or "known(<decision>)". */
static const char *cmd_triage_status(const repro_rundir_signature *s, char *buf, size_t size) {
    if (s->stale != NULL) {
        return "NEW(stale)";
    }
    if (!s->baseline.known) {
        return "NEW";
    }
    snprintf(buf, size, "known(%s)", triage_decision_name(s->baseline.decision));
    return buf;
}

/* Wider cells only push their own row out: a campaign names its
 * reproducers after their signatures, and some are long. */
#define CMD_TRIAGE_SMALLEST_MAX_WIDTH 60

/* "<path> (bs N)" of the smallest reproducer, the path relative to the
 * folder (the header line names it). */
static void cmd_triage_smallest(const repro_rundir *r, const repro_rundir_signature *s, char *buf,
                                size_t size) {
    const char *path = s->smallest;
    size_t n = strlen(r->path);
    if (strncmp(path, r->path, n) == 0 && path[n] == '/') {
        path += n + 1;
    }
    snprintf(buf, size, "%s (bs %lld)", path, (long long)s->smallest_bs);
}

static int cmd_triage_smallest_width(const repro_rundir *r) {
    int width = (int)strlen("SMALLEST REPRODUCER");
    char cell[4200];
    for (size_t i = 0; i < r->n_sigs; i++) {
        cmd_triage_smallest(r, &r->sigs[i], cell, sizeof cell);
        width = (int)strlen(cell) > width ? (int)strlen(cell) : width;
    }
    return width < CMD_TRIAGE_SMALLEST_MAX_WIDTH ? width : CMD_TRIAGE_SMALLEST_MAX_WIDTH;
}

static const char *cmd_triage_time(const char *t) { return t[0] != '\0' ? t : "-"; }

static void cmd_triage_table(const repro_rundir *r) {
    int width = cmd_triage_smallest_width(r);
    char status[32], cell[4200];
    printf("%-16s %6s  %-20s  %-20s  %-*s  %s\n", "STATUS", "COUNT", "FIRST SEEN", "LAST SEEN",
           width, "SMALLEST REPRODUCER", "SIGNATURE");
    for (size_t i = 0; i < r->n_sigs; i++) {
        const repro_rundir_signature *s = &r->sigs[i];
        cmd_triage_smallest(r, s, cell, sizeof cell);
        printf("%-16s %6zu  %-20s  %-20s  %-*s  %s\n", cmd_triage_status(s, status, sizeof status),
               s->count, cmd_triage_time(s->first_seen), cmd_triage_time(s->last_seen), width, cell,
               s->finding.signature);
    }
}

/* The buckets first (one root cause each, new first): what a person reads
 * to tell one bug from many. */
static void cmd_triage_buckets(const repro_rundir *r) {
    char cell[4200];
    printf("%-16s %6s %6s  %s  |  %s\n", "BUCKET STATUS", "SIGS", "INPUTS", "BUCKET",
           "SMALLEST REPRODUCER");
    for (size_t b = 0; b < r->n_buckets; b++) {
        const repro_rundir_bucket *k = &r->buckets[b];
        char status[32];
        cmd_triage_smallest(r, &r->sigs[k->smallest], cell, sizeof cell);
        printf("%-16s %6zu %6zu  %s  |  %s\n",
               k->fresh ? "NEW" : cmd_triage_status(&r->sigs[k->sigs[0]], status, sizeof status),
               k->n_sigs, k->inputs, k->key, cell);
    }
    printf("%zu bucket%s, %zu new\n\n", r->n_buckets, r->n_buckets == 1 ? "" : "s",
           repro_rundir_new_buckets(r));
}

/* Each stale reproducer and what its outputs really give. */
static void cmd_triage_stale(const repro_rundir *r) {
    for (size_t i = 0; i < r->n_sigs; i++) {
        if (r->sigs[i].stale != NULL) {
            printf("stale reproducer %s: %s\n", r->sigs[i].smallest, r->sigs[i].stale);
        }
    }
}

static void cmd_triage_totals(const repro_rundir *r) {
    char stale[48] = "";
    if (repro_rundir_stale(r) > 0) {
        snprintf(stale, sizeof stale, " (%zu stale)", repro_rundir_stale(r));
    }
    printf("%zu signature%s, %zu new%s, %zu input%s (%zu unreadable)\n", r->n_sigs,
           r->n_sigs == 1 ? "" : "s", repro_rundir_new(r), stale, r->inputs,
           r->inputs == 1 ? "" : "s", r->unreadable);
    if (r->unreadable > 0) {
        fprintf(stderr, "gmfuzz triage: %zu file%s not read as reproducers; the last: %s\n",
                r->unreadable, r->unreadable == 1 ? "" : "s", r->last_problem);
    }
}

static void cmd_triage_print(const repro_rundir *r, const char *baseline) {
    printf("%s: %s, baseline %s\n", r->path,
           r->is_campaign ? "run folder" : "folder of reproducers", baseline != NULL ? baseline : "none (--strict-baseline)");
    cmd_triage_buckets(r);
    cmd_triage_table(r);
    cmd_triage_stale(r);
    cmd_triage_totals(r);
}

static bool cmd_triage_print_json(const repro_rundir *r, const char *baseline) {
    cJSON *doc = repro_rundir_json(r, baseline);
    char *text = doc != NULL ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (text == NULL) {
        fputs("gmfuzz triage: out of memory printing the document\n", stderr);
        return false;
    }
    puts(text);
    free(text);
    return true;
}

static int cmd_triage_run(const cmd_triage_args *a) {
    triage_baseline *b = NULL;
    char path[4096];
    int rc = cmd_triage_baseline(a, &b, path, sizeof path);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    const char *baseline = a->strict ? NULL : path;
    repro_rundir r;
    gm_error err = {0};
    if (!repro_rundir_load(a->dir, b, &r, &err)) {
        fprintf(stderr, "gmfuzz triage: %s\n", err.msg);
        triage_baseline_free(b);
        return CMD_TRIAGE_EXIT_UNREADABLE;
    }
    if (a->json) {
        rc = cmd_triage_print_json(&r, baseline) ? CLI_EXIT_OK : CMD_TRIAGE_EXIT_UNREADABLE;
    } else {
        cmd_triage_print(&r, baseline);
    }
    if (rc == CLI_EXIT_OK && r.inputs == 0 && r.unreadable > 0) {
        /* Every file failed to read: no verdict on the run, not a pass. */
        fprintf(stderr, "gmfuzz triage: %s: none of its %zu file%s could be read\n", a->dir,
                r.unreadable, r.unreadable == 1 ? "" : "s");
        rc = CMD_TRIAGE_EXIT_UNREADABLE;
    } else if (rc == CLI_EXIT_OK && repro_rundir_new(&r) > 0) {
        rc = CLI_EXIT_FINDING;
    }
    repro_rundir_free(&r);
    triage_baseline_free(b);
    return rc;
}

int cmd_triage_main(int argc, char **argv) {
    cmd_triage_args a;
    if (!cmd_triage_parse(argc, argv, &a)) {
        return CLI_EXIT_USAGE;
    }
    if (a.help) {
        fputs(cmd_triage_usage, stdout);
        return CLI_EXIT_OK;
    }
    return cmd_triage_run(&a);
}
