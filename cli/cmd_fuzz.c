/* gmfuzz fuzz [options]: a coverage-guided differential campaign
 * (campaign/campaign.h runs it; this file parses its options).
 *
 * Exit codes (campaign.h): 0 nothing new was found, 1 a new signature was
 * found, 2 usage, 4 infrastructure (no target, engines that would not run,
 * the backend failed), 5 the --out folder is locked by another campaign,
 * 6 a finding could not be saved.
 */
#include "cmd_fuzz.h"

#include <stdio.h>
#include <string.h>

#include "campaign.h"
#include "cli_getopt.h"
#include "cli_options.h"

static const char cmd_fuzz_usage[] =
    "usage: gmfuzz fuzz [options]\n"
    "\n"
    "A coverage-guided differential campaign: the engine's target runs every\n"
    "input through the reference and the fused kernel; a difference whose\n"
    "signature the baseline does not know is saved in DIR/failures/. At the\n"
    "end one representative per signature is minimized into DIR/repros/ and\n"
    "a summary is printed and written to DIR/summary.txt. Ctrl-C ends the\n"
    "campaign early and keeps everything.\n"
    "\n";

/* Its flags come from the campaign's one table (campaign_options_usage). */
static const char cmd_fuzz_usage_end[] =
    "\n"
    "exit codes: 0 nothing new found, 1 a new signature was found, 2 usage,\n"
    "4 infrastructure (target missing, engine failed to start), 5 the --out\n"
    "folder is in use by another campaign, 6 a finding could not be saved\n";

/* The options of fuzz and sweep: the campaign's flag table. Each one's
 * code is CMD_FUZZ_CODE + its index there (past getopt's own codes: 1 is
 * a positional argument); campaign_options_set gives them their meaning. */
#define CMD_FUZZ_MAX 64
enum { CMD_FUZZ_CODE = 1000, CMD_FUZZ_HELP = 'h' };

/* The getopt_long table of the campaign's flags, then --help; their count. */
static int cmd_fuzz_table(struct option *longs) {
    int n = (int)campaign_options_count();
    n = n < CMD_FUZZ_MAX ? n : CMD_FUZZ_MAX;
    for (int i = 0; i < n; i++) {
        bool valued = false;
        const char *name = campaign_options_name((size_t)i, &valued);
        longs[i] = (struct option){name, valued ? required_argument : no_argument, NULL,
                                   CMD_FUZZ_CODE + i};
    }
    longs[n] = (struct option){"help", no_argument, NULL, CMD_FUZZ_HELP};
    longs[n + 1] = (struct option){NULL, 0, NULL, 0};
    return n;
}

typedef struct {
    campaign_options *o;
    int n_flags;
    bool help;
    char msg[512];
} cmd_fuzz_scan;

static bool cmd_fuzz_take(void *ctx, const cli_getopt_item *item) {
    cmd_fuzz_scan *scan = ctx;
    const char *v = item->value;
    if (item->code == CMD_FUZZ_HELP) {
        scan->help = true; /* shown once the rest parsed */
    } else if (item->code == CLI_GETOPT_MISSING) {
        snprintf(scan->msg, sizeof scan->msg, "%s: bad or missing value", item->flag);
        return false;
    } else if (item->code < CMD_FUZZ_CODE || item->code >= CMD_FUZZ_CODE + scan->n_flags) {
        snprintf(scan->msg, sizeof scan->msg, "unknown option '%s' (see gmfuzz fuzz --help)",
                 item->flag != NULL ? item->flag : v);
        return false;
    } else if (!campaign_options_set(scan->o, item->flag, v)) {
        snprintf(scan->msg, sizeof scan->msg, "%s: bad or missing value%s%s%s", item->flag,
                 v ? " '" : "", v ? v : "", v ? "'" : "");
        return false;
    }
    return true;
}

int cmd_fuzz_main(int argc, char **argv) {
    const cmd_fuzz_help help = {cmd_fuzz_usage, CAMPAIGN_HELP_FUZZ, cmd_fuzz_usage_end};
    return cmd_fuzz_as("fuzz", &help, CAMPAIGN_LIBFUZZER, argc, argv);
}

int cmd_fuzz_as(const char *name, const cmd_fuzz_help *help, campaign_engine engine, int argc,
                char **argv) {
    struct option longs[CMD_FUZZ_MAX + 2];
    campaign_options o;
    cmd_fuzz_scan scan = {&o, 0, false, ""};
    scan.n_flags = cmd_fuzz_table(longs);
    campaign_options_default(&o);
    o.engine = engine;
    if (!cli_getopt_scan(argc, argv, "h", longs, cmd_fuzz_take, &scan) ||
        (!scan.help && !campaign_options_check(&o, scan.msg, sizeof scan.msg))) {
        fprintf(stderr, "gmfuzz %s: %s\n", name, scan.msg);
        return CLI_EXIT_USAGE;
    }
    if (scan.help) {
        fputs(help->head, stdout);
        campaign_options_usage(stdout, help->which);
        fputs("  -h, --help                this text\n", stdout);
        fputs(help->tail, stdout);
        return CLI_EXIT_OK;
    }
    return campaign_fuzz(&o, name);
}
