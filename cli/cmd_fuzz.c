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
    "\n"
    "  --engine libfuzzer|afl++|sweep\n"
    "                            the fuzzing engine (default libfuzzer); sweep:\n"
    "                            generated cases in batches, no coverage (gmfuzz sweep)\n"
    "  --batch N                 sweep: cases per round trip to the target (default 64)\n"
    "  --shape-run N             sweep: cases drawn per shape (default 1)\n"
    "  --cases N                 sweep: cases per job, then stop (as --runs)\n"
    "  --schedule auto|classes|naive\n"
    "                            the order of the cases: in runs of one specialization\n"
    "                            class, new classes within a JIT budget (classes), or\n"
    "                            each drawn anew (naive); auto: classes when the target\n"
    "                            reports its compiles (docs/TARGETS.md)\n"
    "  --class-run N             cases a run of one class (default 256)\n"
    "  --class-budget PERCENT    of the time new classes may cost (default 10)\n"
    "  --class-warm N            new classes met at once at the start (default 4)\n"
    "  --hubs N                  processes that own a GPU target for all jobs\n"
    "                            (default: 1 for a builtin CUDA or lib: target, else 0:\n"
    "                            each job its own worker; docs/TARGETS.md)\n"
    "  --hub-lanes N             threads per hub of a builtin target (default 8)\n"
    "  --gpus all|LIST           one hub per device (0,1,...; a list may repeat one),\n"
    "                            job k on hub k mod N; all: CUDA_VISIBLE_DEVICES or\n"
    "                            every GPU\n"
    "  --backend cpu|cuda        where the fused kernel runs (default cpu)\n"
    "  --time S                  wall-clock seconds (default 60)\n"
    "  --jobs N                  engine processes (default: all cores)\n"
    "  --out DIR                 output folder (default out/fuzz-<UTC time>)\n"
    "  --compare live|strict     comparison level (default live)\n"
    "  --strict-baseline         every mismatch is a failure, known or not\n"
    "  --baseline FILE           known differences (default corpus/known.json)\n"
    "  --target T                the fused side: builtin:cpu|cuda, lib:PATH.so or\n"
    "                            python:[MODULE][:FUNCTION] (docs/TARGETS.md)\n"
    "  --target-device cuda|cpu  where a python: target's tensors live (default cuda)\n"
    "  --target-timeout S        one call's execution limit for lib: and python:\n"
    "                            (default 10)\n"
    "  --target-compile-timeout S  one compile or load a python: target reports, and\n"
    "                            the re-run that confirms a hang of a target whose\n"
    "                            compiles gmfuzz cannot see (default 300)\n"
    "  --target-start-timeout S  a python: target's start-up (import, HELLO): past it\n"
    "                            the job stops and the campaign exits 4, \"target did\n"
    "                            not start within S s\" (default 180)\n"
    "  --target-cache DIR        the target JIT's on-disk cache for every process\n"
    "                            (TRITON_CACHE_DIR; keep it between campaigns)\n"
    "  --reference python:[MODULE][:FUNCTION]\n"
    "                            also the legacy sequence in real PyTorch (three-way)\n"
    "  --engine-binary PATH      the engine's target binary (default: searched; also\n"
    "                            --target PATH, when PATH is not a target spec)\n"
    "  --seeds DIR | --no-seeds  seed corpus (default corpus/seed)\n"
    "  --dict FILE | --no-dict   dictionary (default fuzz/gmfuzz.dict)\n"
    "  --runs N                  executions per job, then stop (libFuzzer)\n"
    "  --seed N                  engine seed of job 0 (job k: N + k)\n"
    "  --stop-on-new             end at the first new signature\n"
    "  --abort-on-failure        the target aborts at each failure (the engine\n"
    "                            records a crash) and is restarted; default: it\n"
    "                            saves each signature once and goes on\n"
    "  --no-minimize             keep the failures as found\n"
    "  --minimize-time S         the minimization's budget after the campaign\n"
    "                            (default max(10, 25% of --time)); reproducers it\n"
    "                            does not reach are saved unminimized\n"
    "  --stall-timeout S         restart a job with no output and no CPU time\n"
    "                            for S seconds, or whose execution count stands\n"
    "                            still S seconds past its next report (default 60)\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 nothing new found, 1 a new signature was found, 2 usage,\n"
    "4 infrastructure (target missing, engine failed to start), 5 the --out\n"
    "folder is in use by another campaign, 6 a finding could not be saved\n";


/* The options of fuzz and sweep, in the order of the help text; each
 * one's code is CMD_FUZZ_CODE + its index here (past getopt's own codes:
 * 1 is a positional argument). campaign_options_set gives them their
 * meaning. */
static const char *const cmd_fuzz_names[] = {
    "engine", "batch", "shape-run", "cases", "hubs", "hub-lanes", "gpus", "backend", "time", "jobs", "out",
    "compare", "strict-baseline", "baseline", "target", "target-device", "target-timeout",
    "target-compile-timeout", "target-start-timeout", "target-cache", "schedule", "class-run", "class-budget",
    "class-warm",
    "reference", "engine-binary", "seeds", "no-seeds", "dict", "no-dict", "runs", "seed",
    "stop-on-new", "abort-on-failure", "no-minimize", "minimize-time", "stall-timeout",
};
enum { CMD_FUZZ_N = sizeof cmd_fuzz_names / sizeof cmd_fuzz_names[0], CMD_FUZZ_CODE = 1000,
       CMD_FUZZ_HELP = 'h' };

/* The getopt_long table of cmd_fuzz_names, then --help. */
static void cmd_fuzz_table(struct option *longs) {
    char flag[40];
    for (int i = 0; i < CMD_FUZZ_N; i++) {
        snprintf(flag, sizeof flag, "--%s", cmd_fuzz_names[i]);
        bool valued = campaign_options_takes_value(flag);
        longs[i] = (struct option){cmd_fuzz_names[i], valued ? required_argument : no_argument,
                                   NULL, CMD_FUZZ_CODE + i};
    }
    longs[CMD_FUZZ_N] = (struct option){"help", no_argument, NULL, CMD_FUZZ_HELP};
    longs[CMD_FUZZ_N + 1] = (struct option){NULL, 0, NULL, 0};
}

typedef struct {
    campaign_options *o;
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
    } else if (item->code < CMD_FUZZ_CODE || item->code >= CMD_FUZZ_CODE + CMD_FUZZ_N) {
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
    return cmd_fuzz_as("fuzz", cmd_fuzz_usage, CAMPAIGN_LIBFUZZER, argc, argv);
}

int cmd_fuzz_as(const char *name, const char *usage, campaign_engine engine, int argc,
                char **argv) {
    struct option longs[CMD_FUZZ_N + 2];
    campaign_options o;
    cmd_fuzz_scan scan = {&o, false, ""};
    cmd_fuzz_table(longs);
    campaign_options_default(&o);
    o.engine = engine;
    if (!cli_getopt_scan(argc, argv, "h", longs, cmd_fuzz_take, &scan) ||
        (!scan.help && !campaign_options_check(&o, scan.msg, sizeof scan.msg))) {
        fprintf(stderr, "gmfuzz %s: %s\n", name, scan.msg);
        return CLI_EXIT_USAGE;
    }
    if (scan.help) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    return campaign_fuzz(&o, name);
}
