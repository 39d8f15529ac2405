/* `gmfuzz export`: placeholder until its owner lands it. */
#include <stdio.h>

#include "cli_options.h"
#include "cmd_export.h"

int cmd_export_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("gmfuzz export: not built yet\n", stderr);
    return CLI_EXIT_USAGE;
}
