#include "cmd_hub.h"

#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli_options.h"
#include "harness.h"

static const char cmd_hub_usage[] =
    "usage: gmfuzz target-hub --name NAME [--target T] [--target-device cuda|cpu]\n"
    "                         [--target-timeout S] [--target-compile-timeout S]\n"
    "                         [--target-start-timeout S] [--parent PID] [--lanes N]\n"
    "Serves the target T (default builtin:cuda) to the jobs of a campaign on the\n"
    "abstract Unix socket @NAME (docs/TARGETS.md, \"The target hub\"), until\n"
    "SIGTERM or SIGINT, or until the process PID is gone. A builtin target runs in\n"
    "N threads (default 8; on CUDA one stream each), an external one in one.\n"
    "  -h, --help  this text\n";

static volatile sig_atomic_t cmd_hub_stop;

static void cmd_hub_on_signal(int sig) {
    (void)sig;
    cmd_hub_stop = 1;
}

typedef struct {
    harness_target_spec spec;
    const char *name;
    pid_t parent;
    int lanes;
} cmd_hub_options;

static bool cmd_hub_parse(int argc, char **argv, cmd_hub_options *o) {
    static const struct option longs[] = {
        {"name", required_argument, NULL, 'n'},     {"target", required_argument, NULL, 't'},
        {"target-device", required_argument, NULL, 'd'},
        {"target-timeout", required_argument, NULL, 's'},
        {"target-compile-timeout", required_argument, NULL, 'c'},
        {"parent", required_argument, NULL, 'p'},   {"help", no_argument, NULL, 'h'},
        {"lanes", required_argument, NULL, 'l'},
        {"target-start-timeout", required_argument, NULL, 'S'},
        {NULL, 0, NULL, 0},
    };
    harness_target_builtin(&o->spec, HARNESS_BACKEND_CUDA);
    o->lanes = HARNESS_HUB_LANES_DEFAULT;
    gm_error err = {0};
    int c;
    optind = 0; /* glibc starts over; permuting: flags may follow paths */
    while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'n': o->name = optarg; break;
        case 't':
            if (!harness_target_parse(optarg, &o->spec, &err)) {
                fprintf(stderr, "gmfuzz target-hub: --target: %s\n", err.msg);
                return false;
            }
            break;
        case 'd': o->spec.device_cpu = strcmp(optarg, "cpu") == 0; break;
        case 's': o->spec.timeout_s = strtod(optarg, &end); break;
        case 'c': o->spec.compile_timeout_s = strtod(optarg, &end); break;
        case 'p': o->parent = (pid_t)strtol(optarg, &end, 10); break;
        case 'S': o->spec.start_timeout_s = strtod(optarg, &end); break;
        case 'l': o->lanes = (int)strtol(optarg, &end, 10); break;
        case 'h': fputs(cmd_hub_usage, stdout); exit(CLI_EXIT_OK);
        default: fputs(cmd_hub_usage, stderr); return false;
        }
        if (end != NULL && *end != '\0') {
            fprintf(stderr, "gmfuzz target-hub: '%s' is not a number\n", optarg);
            return false;
        }
    }
    if (o->name == NULL || optind != argc) {
        fputs(cmd_hub_usage, stderr);
        return false;
    }
    return true;
}

int cmd_hub_main(int argc, char **argv) {
    cmd_hub_options o = {0};
    if (!cmd_hub_parse(argc, argv, &o)) {
        return CLI_EXIT_USAGE;
    }
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive the campaign */
    struct sigaction sa = {.sa_handler = cmd_hub_on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    gm_error err = {0};
    harness_hub_stats st = {0};
    bool ok = harness_hub_serve(&o.spec, o.name, o.lanes, &cmd_hub_stop, o.parent, &st, &err);
    double per_case = st.cases ? st.target_s / (double)st.cases * 1e6 : 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    fprintf(stderr,
            "gmfuzz target-hub @%s (CUDA_VISIBLE_DEVICES %s): %" PRIu64 " rounds, %" PRIu64 " cases (%.1f a round); "
            "target %.2f s (%.0f us a case), reading %.2f s, answering %.2f s; slowest round "
            "%.1f ms (%" PRIu64 " cases), %" PRIu64 " rounds of 1 ms or more in %.2f s; cases of "
            "%.0f bytes on average, %" PRIu64 " at most; %" PRIu64 " shared blocks (%" PRIu64
            " pinned); CUDA blocks: enqueue %.2f s, wait %.2f s, pin %.2f s, %" PRIu64
            " device allocations\n",
            o.name, visible ? visible : "unset", st.rounds, st.cases, st.rounds ? (double)st.cases / (double)st.rounds : 0.0,
            st.target_s, per_case, st.read_s, st.answer_s, st.max_round_s * 1e3,
            st.max_round_cases, st.slow_rounds, st.slow_s,
            st.cases ? (double)st.case_bytes / (double)st.cases : 0.0, st.max_case_bytes,
            st.blocks, st.pinned, st.enqueue_s, st.sync_s, st.pin_s, st.grows);
    if (!ok) {
        fprintf(stderr, "gmfuzz target-hub @%s: %s\n", o.name, err.msg);
        /* The campaign tells a target that never started by this code. */
        return err.code == GM_ERR_START    ? HARNESS_EXIT_NO_START
               : err.code == GM_ERR_DEVICE ? CLI_EXIT_BACKEND
                                           : CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}
