/* gmfuzz: the command-line tool. Dispatches to one command per file. */
#include <stdio.h>
#include <string.h>

#include "cli_options.h"
#include "cmd_replay.h"
#include "cmd_run.h"

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
    "  replay PATH...     replay cases, conformance vectors and reproducers (files,\n"
    "                     or folders searched for *.json) and check each against\n"
    "                     what it records; prints one line per failure and\n"
    "                     'N passed, N failed'\n"
    "\n"
    "options:\n"
    "  --backend cpu|cuda     where the fused kernel runs (default cpu)\n"
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
    "  4  the backend is unavailable or failed (e.g. --backend cuda without a GPU)\n";

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
    if (strcmp(command, "run") == 0) {
        return cmd_run_main(argc - 1, argv + 1);
    }
    if (strcmp(command, "replay") == 0) {
        return cmd_replay_main(argc - 1, argv + 1);
    }
    fprintf(stderr, "gmfuzz: unknown command '%s' (see gmfuzz --help)\n", command);
    return CLI_EXIT_USAGE;
}
