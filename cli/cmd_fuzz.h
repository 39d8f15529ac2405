#ifndef CMD_FUZZ_H
#define CMD_FUZZ_H

#include "campaign.h"

/* `gmfuzz fuzz`: argv[0] is "fuzz". Returns the process exit code. */
int cmd_fuzz_main(int argc, char **argv);

/* A campaign as command `name` ("fuzz", "sweep"), with `engine` unless
 * --engine says otherwise: its messages name it and --help prints `usage`. */
int cmd_fuzz_as(const char *name, const char *usage, campaign_engine engine, int argc,
                char **argv);
#endif
