/* `gmfuzz promote`: placeholder until its owner lands it. */
#include <stdio.h>

#include "cli_options.h"
#include "cmd_promote.h"

int cmd_promote_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("gmfuzz promote: not built yet\n", stderr);
    return CLI_EXIT_USAGE;
}
