/* gmfuzz warm --target T [--jobs N] [--classes K] [--seed S] [--seeds DIR | --no-seeds]
 * (campaign/campaign.h, campaign_warm; docs/TARGETS.md, "Specialization
 * classes"): the target's JIT cache filled ahead of a campaign. */
#include "cmd_warm.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign.h"
#include "cli_options.h"
#include "gm_decimal.h"

static const char cmd_warm_usage[] =
    "usage: gmfuzz warm --target T [--jobs N] [--classes K] [--seed S]\n"
    "                   [--seeds DIR | --no-seeds] [--target-cache DIR]\n"
    "  compiles ahead, in parallel over N workers of the target, the specialization\n"
    "  classes a campaign's jobs meet first (docs/TARGETS.md): job k's first K new\n"
    "  classes of a sweep with --seed S, and every N-th input of the seed corpus\n"
    "  (what a libFuzzer job meets first). They land in the target's on-disk JIT\n"
    "  cache (--target-cache DIR, TRITON_CACHE_DIR), which the campaign's workers\n"
    "  then load from; keep it between campaigns.\n"
    "  --jobs N                workers, as the campaign's jobs (default: all cores)\n"
    "  --classes K             new classes per job (default 8)\n"
    "  --seed S                the campaign's --seed (default: its default)\n"
    "  --seeds DIR             the seed corpus (default corpus/seed); --no-seeds: none\n"
    CLI_OPTIONS_TARGET_HELP
    "  -h, --help              this text\n"
    "exit codes: 0 warmed, 2 usage, 4 a worker could not open the target or ran nothing\n";

enum { CMD_WARM_JOBS = 1000, CMD_WARM_CLASSES, CMD_WARM_SEED, CMD_WARM_SEEDS, CMD_WARM_NO_SEEDS };

static const struct option cmd_warm_longs[] = {
    {"jobs", required_argument, NULL, CMD_WARM_JOBS},
    {"classes", required_argument, NULL, CMD_WARM_CLASSES},
    {"seed", required_argument, NULL, CMD_WARM_SEED},
    {"seeds", required_argument, NULL, CMD_WARM_SEEDS},
    {"no-seeds", no_argument, NULL, CMD_WARM_NO_SEEDS},
    {NULL, 0, NULL, 0},
};

static int cmd_warm_take(void *ctx, const cli_getopt_item *item) {
    campaign_warm_options *w = ctx;
    uint64_t v = 0;
    bool ok = true;
    switch (item->code) {
    case CMD_WARM_JOBS: ok = gm_decimal_parse(item->value, 1, 1024, &v), w->jobs = (int)v; break;
    case CMD_WARM_CLASSES:
        ok = gm_decimal_parse(item->value, 1, 4096, &v), w->classes = (unsigned)v;
        break;
    case CMD_WARM_SEED: ok = gm_decimal_parse(item->value, 1, UINT64_MAX / 2, &w->seed); break;
    case CMD_WARM_SEEDS: w->seeds = item->value; break;
    case CMD_WARM_NO_SEEDS: w->seeds = NULL; break;
    default: return -1;
    }
    if (!ok) {
        fprintf(stderr, "gmfuzz warm: %s: '%s' is out of range\n", item->flag, item->value);
    }
    return ok ? 1 : 0;
}

static int cmd_warm_body(int argc, char **argv, const char **paths) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    campaign_warm_options w = {.jobs = cores > 0 ? (int)cores : 1, .classes = 8,
                               .seeds = GMFUZZ_SOURCE_DIR "/corpus/seed"};
    cli_options o;
    cli_options_own own = {cmd_warm_longs, "", cmd_warm_take, &w};
    if (!cli_options_parse(argc, argv, false, &own, &o, paths)) {
        return CLI_EXIT_USAGE; /* said why */
    }
    if (o.n_paths != 0 || !o.target_given || !harness_target_is_external(&o.target)) {
        fprintf(stderr, "gmfuzz warm: takes --target lib:... or python:... and no paths\n");
        return CLI_EXIT_USAGE;
    }
    w.target = o.target;
    return campaign_warm(&w);
}

int cmd_warm_main(int argc, char **argv) {
    return cli_options_main(argc, argv, cmd_warm_usage, cmd_warm_body);
}
