/* `gmfuzz report`: placeholder until its owner lands it. */
#include <stdio.h>

#include "cli_options.h"
#include "cmd_report.h"

int cmd_report_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("gmfuzz report: not built yet\n", stderr);
    return CLI_EXIT_USAGE;
}
