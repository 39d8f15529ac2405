/* `gmfuzz triage`: placeholder until its owner lands it. */
#include <stdio.h>

#include "cli_options.h"
#include "cmd_triage.h"

int cmd_triage_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("gmfuzz triage: not built yet\n", stderr);
    return CLI_EXIT_USAGE;
}
