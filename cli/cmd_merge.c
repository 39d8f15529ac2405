#include "cmd_merge.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "campaign.h"

static const char cmd_merge_usage[] =
    "usage: gmfuzz merge OUT DIR... [--engine-binary PATH | --union]\n"
    "\n"
    "Makes the campaign folders DIR... (what gmfuzz fuzz --out wrote: several\n"
    "runners, GPUs or nights) into one folder OUT, new or empty:\n"
    "  corpus/     the corpora merged by coverage with libFuzzer's -merge=1 (the\n"
    "              differential target gmfuzz-libfuzzer-cpu, found as fuzz finds\n"
    "              it); without one, their union by content, and it says so\n"
    "  failures/, repros/  per signature the smallest failing input and the\n"
    "              smallest reproducer of all sources: the union of signatures\n"
    "  sources/K-NAME/  each source's campaign.json and stats.jsonl\n"
    "  campaign.json  the merge's record, listing its sources\n"
    "  report.*    report.md, report.html (one line per source), summary.json,\n"
    "              junit.xml\n"
    "\n"
    "  --engine-binary PATH  the libFuzzer target that merges the corpora\n"
    "  --union               the union by content even where libFuzzer exists\n"
    "  -h, --help            this text\n"
    "\n"
    "exit codes: 0 merged, nothing new; 1 merged, a signature new to the baseline\n"
    "(the first source's known.json); 2 usage (OUT is a source, or not empty); 3 a\n"
    "source is not a campaign folder or cannot be read; 4 the corpus merge or a\n"
    "write failed; 5 OUT is in use by another campaign or merge\n";

static bool cmd_merge_parse(int argc, char **argv, campaign_merge_options *o, bool *help) {
    static const struct option longs[] = {{"engine-binary", required_argument, NULL, 'e'},
                                          {"union", no_argument, NULL, 'u'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    *help = false;
    optind = 0; /* glibc starts over; permuting: flags may follow paths */
    for (int c; (c = getopt_long(argc, argv, "h", longs, NULL)) != -1;) {
        switch (c) {
        case 'e': o->engine_binary = optarg; break;
        case 'u': o->union_only = true; break;
        case 'h': *help = true; return true;
        default: return false;
        }
    }
    if (argc - optind < 2) {
        fprintf(stderr, "gmfuzz merge: takes OUT and at least one campaign folder DIR\n");
        return false;
    }
    o->out = argv[optind];
    o->sources = argv + optind + 1;
    o->n_sources = (size_t)(argc - optind - 1);
    return true;
}

int cmd_merge_main(int argc, char **argv) {
    campaign_merge_options o;
    bool help = false;
    if (!cmd_merge_parse(argc, argv, &o, &help)) {
        fputs(cmd_merge_usage, stderr);
        return CAMPAIGN_MERGE_EXIT_USAGE;
    }
    if (help) {
        fputs(cmd_merge_usage, stdout);
        return CAMPAIGN_MERGE_EXIT_OK;
    }
    return campaign_merge_run(&o, stdout);
}
