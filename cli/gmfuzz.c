/* gmfuzz: the command-line tool. Dispatches to one command per file. */
#include <stdio.h>
#include <string.h>

#include "cli_options.h"
#include "cli_term.h"
#include "cmd_agree.h"
#include "cmd_bisect.h"
#include "cmd_bench.h"
#include "cmd_coverage.h"
#include "cmd_fuzz.h"
#include "cmd_minimize.h"
#include "cmd_export.h"
#include "cmd_promote.h"
#include "cmd_vector.h"
#include "cmd_replay.h"
#include "cmd_retest.h"
#include "cmd_report.h"
#include "cmd_run.h"
#include "cmd_show.h"
#include "cmd_sweep.h"
#include "cmd_hub.h"
#include "cmd_warm.h"
#include "cmd_decode.h"
#include "cmd_merge.h"
#include "cmd_triage.h"

#ifndef GMFUZZ_VERSION
#define GMFUZZ_VERSION "0.0.0"
#endif

static const char gmfuzz_usage[] =
    "usage: gmfuzz <command> [options] [paths]\n"
    "\n"
    "Differential testing of the fused TRTLLM-MHA graph-metadata kernel against\n"
    "a bit-exact C emulation of the legacy ATen op sequence.\n"
    "\n"
    "commands:\n"
    "  run CASE.json      run the reference and the fused kernel on one case and\n"
    "                     print the verdict (a vector or reproducer: its case)\n"
    "  replay PATH... [--exact]\n"
    "                     replay cases, conformance vectors and reproducers (files,\n"
    "                     or folders searched for *.json) and check each against\n"
    "                     what it records; prints one line per failure and\n"
    "                     'N passed, N failed'; --exact: a reproducer must also\n"
    "                     be rewritten byte for byte (the regression corpus)\n"
    "  agree [PATH...] [--backends B,B,...] [--cases N] [--seed S]\n"
    "                     run the fused kernel on several backends (default\n"
    "                     cpu,cuda,cuda-graph) over the documents in PATH and N\n"
    "                     generated cases; every backend must give the first\n"
    "                     one's buffers bit for bit\n"
    "  bench kernel [--json FILE] [--ncu] [--shape I]\n"
    "                     GPU benchmark of the production kernel: host time\n"
    "                     per launch call, GPU time per rebuild in graph\n"
    "                     replay, kernel duration from ncu\n"
    "  fuzz [--engine libfuzzer|afl++] [--backend cpu|cuda] [--time S] [--jobs N]\n"
    "       [--out DIR] [--compare live|strict] [--strict-baseline]\n"
    "                     a coverage-guided campaign; every new mismatch is\n"
    "                     minimized into DIR/repros/ and summarized at the end\n"
    "  sweep [--target T] [--time S | --cases N] [--batch N] [--jobs N] [--seed S]\n"
    "                     structured random cases sent to the target in batches\n"
    "                     (no coverage: for GPU targets); findings minimized and\n"
    "                     reported as by fuzz (its other options too)\n"
    "  warm --target T [--jobs N] [--classes K] [--target-cache DIR]\n"
    "                     compile ahead the specialization classes a campaign's\n"
    "                     jobs meet first, in parallel, into the target's JIT cache\n"
    "  minimize CASE.json -o REPRO.json\n"
    "                     shrink a failing case, keeping its signature, into a\n"
    "                     complete reproducer\n"
    "  triage DIR [--baseline FILE | --strict-baseline] [--json]\n"
    "                     group a run's failing inputs by signature: counts,\n"
    "                     first and last seen, smallest reproducer, known or NEW\n"
    "  show REPRO.json [--max N]\n"
    "                     the case in a few lines and the differing elements,\n"
    "                     reference vs fused, with the class of each\n"
    "  report DIR         write report.md, summary.json, junit.xml and\n"
    "                     report.html for a run folder\n"
    "  merge OUT DIR... [--engine-binary PATH | --union]\n"
    "                     several campaign folders (runners, nights) into one:\n"
    "                     corpora merged by coverage, failures by signature, stats\n"
    "                     per source, one report\n"
    "  coverage DIR [--build TREE] [--source SRC]\n"
    "                     source coverage of a campaign's inputs (clang): HTML and\n"
    "                     a summary of the semantics, the reference and the oracle\n"
    "                     in DIR/coverage/, linked from DIR's report.html\n"
    "  promote REPRO.json... [--corpus DIR] [--minimize]\n"
    "                     add reproducers to the regression corpus (default\n"
    "                     corpus/regress/), one per signature, the smaller kept\n"
    "  decode BYTES [-o CASE.json]\n"
    "                     the case a fuzzer input (an engine's crash file) decodes to\n"
    "  export pytest REPRO.json -o test_x.py\n"
    "                     a standalone pytest file for sglang's test suite\n"
    "  retest PATH... [--target T] [--record FILE]\n"
    "                     every reproducer of a campaign folder or corpus run on\n"
    "                     the target now: still failing, fixed or changed bucket\n"
    "  bisect REPRO.json --repo DIR --good REV --bad REV --target T [--fixed]\n"
    "                     the first commit of the target's git repository where\n"
    "                     the bucket appears (--fixed: is gone), each revision\n"
    "                     in a worktree of its own (docs/BISECT.md)\n"
    "\n"
    "options:\n"
    "  --backend B            where the fused kernel runs (default cpu): cpu;\n"
    "                         cuda (checked kernel); cuda-graph (captured once\n"
    "                         per shape, replayed with new inputs); cuda-raw\n"
    "                         (production kernel, unchecked)\n"
    "  --target T             the fused side (docs/TARGETS.md): builtin:B, lib:PATH.so\n"
    "                         or python:[MODULE][:FUNCTION]; --target-device cuda|cpu,\n"
    "                         --target-timeout S (default 10), --target-compile-timeout\n"
    "                         S (default 300), --target-cache DIR; show and minimize run\n"
    "                         a reproducer on its recorded target by default\n"
    "  --reference python:[MODULE][:FUNCTION]\n"
    "                         also the legacy sequence in real PyTorch (three-way;\n"
    "                         --reference-device cpu|cuda); a disagreement is\n"
    "                         reference_drift\n"
    "  --compare live|strict  comparison level for cases (default live);\n"
    "                         reproducers use the level they record\n"
    "  --json                 run: print one JSON object\n"
    "                         {\"reference\", \"fused\", \"verdict\"}\n"
    "  --max-file-size BYTES  reader limit on a document's size (default 268435456)\n"
    "  --max-elements N       reader limit on integers in one case (default 67108864)\n"
    "  --max-bs N             reader limit on batch rows (default 65536)\n"
    "  --max-width N          reader limit on req_to_token and page-table width\n"
    "                         (default 1048576)\n"
    "  -h, --help             this text\n"
    "  --version              the version, and whether CUDA is built in\n"
    "\n"
    "exit codes:\n"
    "  0  run: the two sides match; replay: every document passed\n"
    "  1  run: a mismatch, a legacy raise or a fused out-of-bounds access;\n"
    "     replay: at least one document failed (or could not be read)\n"
    "  2  usage error\n"
    "  3  run: the case could not be read or is malformed\n"
    "  4  the backend is unavailable or failed (e.g. --backend cuda without a GPU)\n"
    "  5  replay: no document found (an empty folder)\n"
    "  6  retest: a reproducer is fixed (bisect, retest: see their --help)\n"
    "  gmfuzz COMMAND --help: that command's usage and exit codes\n"
    "\n"
    "Whatever a document holds reaches the terminal with its control bytes\n"
    "escaped (\\x1b), except in fuzz and sweep, which print only their own text.\n";

static int gmfuzz_version(void) {
#ifdef GMFUZZ_HAVE_CUDA
    const char *cuda = "yes";
#else
    const char *cuda = "no";
#endif
    printf("gmfuzz %s (cuda backend: %s)\n", GMFUZZ_VERSION, cuda);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(gmfuzz_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *command = argv[1];
    if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 ||
        strcmp(command, "help") == 0) {
        fputs(gmfuzz_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(command, "--version") == 0) {
        return gmfuzz_version();
    }
    static const struct {
        const char *name;
        int (*main)(int argc, char **argv);
    } commands[] = {
        {"run", cmd_run_main},
        {"replay", cmd_replay_main},
        {"agree", cmd_agree_main},
        {"bench", cmd_bench_main},
        {"fuzz", cmd_fuzz_main},
        {"sweep", cmd_sweep_main},
        {"sweep-job", cmd_sweep_job_main},
        {"target-hub", cmd_hub_main},
        {"warm", cmd_warm_main},
        {"decode", cmd_decode_main},
        {"minimize", cmd_minimize_main},
        {"triage", cmd_triage_main},
        {"show", cmd_show_main},
        {"report", cmd_report_main},
        {"merge", cmd_merge_main},
        {"coverage", cmd_coverage_main},
        {"promote", cmd_promote_main},
        {"export", cmd_export_main},
        {"vector", cmd_vector_main},
        {"retest", cmd_retest_main},
        {"bisect", cmd_bisect_main},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(command, commands[i].name) == 0) {
            /* The campaign commands draw their own status line (\r, ESC [K)
             * and print no document's strings; every other command does. */
            if (strcmp(command, "fuzz") != 0 && strncmp(command, "sweep", 5) != 0) {
                cli_term_guard();
            }
            return commands[i].main(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "gmfuzz: unknown command '%s' (see gmfuzz --help)\n", command);
    return CLI_EXIT_USAGE;
}
