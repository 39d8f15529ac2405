/* `gmfuzz show`: placeholder until its owner lands it. */
#include <stdio.h>

#include "cli_options.h"
#include "cmd_show.h"

int cmd_show_main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("gmfuzz show: not built yet\n", stderr);
    return CLI_EXIT_USAGE;
}
