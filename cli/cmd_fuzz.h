#ifndef CMD_FUZZ_H
#define CMD_FUZZ_H

#include "campaign.h"

/* `gmfuzz fuzz`: argv[0] is "fuzz". Returns the process exit code. */
int cmd_fuzz_main(int argc, char **argv);

/* A command's --help: `head`, the campaign's flags `which` lists, -h, `tail`. */
typedef struct {
    const char *head;
    campaign_help which;
    const char *tail;
} cmd_fuzz_help;

/* A campaign as command `name` ("fuzz", "sweep"), with `engine` unless
 * --engine says otherwise: its messages name it and --help prints `help`. */
int cmd_fuzz_as(const char *name, const cmd_fuzz_help *help, campaign_engine engine, int argc,
                char **argv);
#endif
